package dev.rowflow.keying.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the spec strings of {@link RowKeyLayout}; every error names the piece at fault. */
final class LayoutSpec {
    private static final Pattern SALT = Pattern.compile("(bucket|hex|bin)\\((.*)\\)");
    /**
     * A part names a field: a plain name or a field path of a declared mapping ({@code host.name},
     * {@code @timestamp}, {@code tags[0]}, with fallbacks {@code host.name|host}); the encoding
     * follows the last colon.
     */
    private static final Pattern PART = Pattern.compile("([^,|:\\s][^,\\s]*):([a-z0-9]+)");

    private LayoutSpec() {
    }

    static RowKeyLayout parse(String spec, UidResolver uids) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("layout spec is empty");
        }
        String compact = spec.replaceAll("\\s+", "");
        // A '|' after a salt separates it from the parts; any other '|' is a fallback in a part's
        // path. Salts are written name(args), and no field path holds a '(' outside quotes.
        int bar = compact.indexOf('|');
        boolean salted = bar >= 0 && compact.substring(0, bar).indexOf('(') >= 0;
        Salt salt = salted ? salt(spec, compact.substring(0, bar)) : new Salt.None();
        List<KeyPart> parts = new ArrayList<>();
        for (String part : (salted ? compact.substring(bar + 1) : compact).split(",", -1)) {
            parts.add(part(spec, part, uids));
        }
        try {
            return new RowKeyLayout(salt, parts);
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

    private static KeyPart part(String spec, String text, UidResolver uids) {
        Matcher m = PART.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("layout '" + spec + "': part '" + text
                    + "' needs the form field:encoding (encodings: " + KeyEncodings.tokens() + ")");
        }
        String field = m.group(1);
        String token = m.group(2);
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
