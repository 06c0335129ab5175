package dev.rowflow.keying.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the spec strings of {@link RowKeyLayout}; every error names the piece at fault. */
final class LayoutSpec {
    private static final Pattern SALT = Pattern.compile("(bucket|hex|bin)\\((.*)\\)");
    /**
     * Where a salt starts: a salt's name and '(', or any name with a number first (salt(4) is a
     * misspelt salt; no function of a part's expression takes a bare number first).
     */
    private static final Pattern SALT_START = Pattern.compile("\\s*((bucket|hex|bin)\\s*\\(|[a-z_]+\\s*\\(\\s*[0-9])");
    private static final Pattern TOKEN = Pattern.compile("[a-z0-9]+");

    private LayoutSpec() {
    }

    static RowKeyLayout parse(String spec, UidResolver uids) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("layout spec is empty");
        }
        // A salt is name(args) at the start, then '|'; any other '|' is a fallback in a part's
        // value (host.name | host). Parts are split at commas outside quotes and parentheses, as
        // a part may be an expression: lower(host.name):text, concat(a, '-', b):text.
        String parts = spec;
        Salt salt = new Salt.None();
        int bar = SpecText.splitTopLevel(spec, '|').get(0).length();
        if (SALT_START.matcher(spec).lookingAt() && bar < spec.length()) {
            salt = salt(spec, spec.substring(0, bar).replaceAll("\\s+", ""));
            parts = spec.substring(bar + 1);
        }
        List<KeyPart> keyParts = new ArrayList<>();
        for (String part : SpecText.splitTopLevel(parts, ',')) {
            keyParts.add(part(spec, part.strip(), uids));
        }
        try {
            return new RowKeyLayout(salt, keyParts);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("layout '" + spec + "': " + e.getMessage(), e);
        }
    }

    private static Salt salt(String spec, String text) {
        Matcher m = SALT.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("layout '" + spec + "': salt '" + text
                    + "' is none of bucket(N), bucket(N,hash=field+...), bucket(N,mod=field), hex(W), bin(W)");
        }
        String[] args = m.group(2).split(",", -1);
        try {
            int n = Integer.parseInt(args[0]);
            switch (m.group(1)) {
                case "hex":
                    requireArgs(args, 1);
                    return new Salt.Hex(n);
                case "bin":
                    requireArgs(args, 1);
                    return new Salt.Binary(n);
                default:
                    if (args.length == 1) {
                        return new Salt.Bucket(n, List.of(), null);
                    }
                    requireArgs(args, 2);
                    if (args[1].startsWith("hash=")) {
                        return new Salt.Bucket(n, List.of(args[1].substring(5).split("\\+")), null);
                    }
                    if (args[1].startsWith("mod=")) {
                        return new Salt.Bucket(n, List.of(), args[1].substring(4));
                    }
                    throw new IllegalArgumentException("the second argument must be hash=field[+field...] or mod=field");
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("layout '" + spec + "': salt '" + text + "' needs a whole number first", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("layout '" + spec + "': salt '" + text + "': " + e.getMessage(), e);
        }
    }

    private static void requireArgs(String[] args, int count) {
        if (args.length != count) {
            throw new IllegalArgumentException("takes " + count + " argument" + (count == 1 ? "" : "s"));
        }
    }

    /**
     * A part: a field (a plain name, a field path of a declared mapping such as {@code host.name},
     * {@code @timestamp}, {@code tags[0]}, or an expression over them), then the encoding after
     * the last colon outside quotes and parentheses.
     */
    private static KeyPart part(String spec, String text, UidResolver uids) {
        int colon = SpecText.lastIndexTopLevel(text, ':');
        String field = colon < 0 ? "" : text.substring(0, colon).strip();
        String token = colon < 0 ? "" : text.substring(colon + 1).strip();
        if (field.isEmpty() || !TOKEN.matcher(token).matches()) {
            throw new IllegalArgumentException("layout '" + spec + "': part '" + text
                    + "' needs the form field:encoding (encodings: " + KeyEncodings.tokens() + ")");
        }
        if (token.equals("uid")) {
            return new KeyPart(field, KeyEncodings.uid(field, uids == null ? new NoUidStore(spec, text) : uids));
        }
        KeyEncoding encoding = KeyEncodings.byToken(token);
        if (encoding == null) {
            throw new IllegalArgumentException("layout '" + spec + "': part '" + text + "' has unknown encoding '"
                    + token + "' (encodings: " + KeyEncodings.tokens() + ")");
        }
        return new KeyPart(field, encoding);
    }

    /**
     * Stands in where a layout is only parsed or decoded (configuration checks, {@code rowflow
     * keys}): assigning an id needs the UID table.
     */
    private record NoUidStore(String spec, String part) implements UidResolver {
        @Override
        public long idOf(String kind, String name) {
            throw new IllegalStateException("part '" + part + "' of layout '" + spec
                    + "' needs the UID table to turn '" + name + "' into an id, and none is connected here");
        }

        @Override
        public java.util.Optional<String> nameOf(String kind, long id) {
            return java.util.Optional.empty();
        }
    }
}
