package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.expression.Expression.Kind;
import dev.rowflow.keying.expression.Nodes.Call;
import dev.rowflow.keying.logical.LogicalType;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;
import org.apache.commons.codec.digest.DigestUtils;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.rowflow.keying.expression.Values.absent;
import static dev.rowflow.keying.expression.Values.describe;

/**
 * The functions of the language, the one list of them: each one's name, the kinds of its arguments
 * (the last repeats if {@code variadic}; {@link #minArgs} says which are optional), the kind of its
 * result, what it does, and a description and example from which {@link FunctionReference} renders
 * the reference in docs/mapping.md. The parser checks calls against the kinds at start.
 */
enum Functions {
    LOWER("lower",
            "the text lower-cased (locale-independent)",
            "lower('Web-01')", "'web-01'",
            Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : v.toLowerCase(Locale.ROOT);
        }
    },
    UPPER("upper",
            "the text upper-cased (locale-independent)",
            "upper('Web-01')", "'WEB-01'",
            Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : v.toUpperCase(Locale.ROOT);
        }
    },
    TRIM("trim",
            "the text without leading and trailing white space",
            "trim('  a b ')", "'a b'",
            Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : v.strip();
        }
    },
    CONCAT("concat",
            "the texts joined; missing if one is missing",
            "concat('a', '-', 'b')", "'a-b'",
            Kind.TEXT, true, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < c.args().size(); i++) {
                String v = c.textArg(i, r, s);
                if (v == null) {
                    return null;
                }
                out.append(v);
            }
            return out.toString();
        }
    },
    SUBSTRING("substring",
            "the characters from the 0-based position the second argument gives, to the end or as many as the "
                    + "third says; clamped to the text",
            "substring('nginx.access', 6, 3)", "'acc'",
            Kind.TEXT, false, Kind.TEXT, Kind.LONG, Kind.LONG) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            if (v == null) {
                return null;
            }
            long from = Math.min(Math.max(0, c.longArg(1, r, s)), v.length());
            long to = c.args().size() > 2 ? Math.min(v.length(), from + Math.max(0, c.longArg(2, r, s))) : v.length();
            return v.substring((int) from, (int) to);
        }
    },
    REPLACE("replace",
            "the text with every occurrence of the second replaced by the third (plain text, not a regular "
                    + "expression)",
            "replace('a.b.c', '.', '_')", "'a_b_c'",
            Kind.TEXT, false, Kind.TEXT, Kind.TEXT, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            String target = c.textArg(1, r, s);
            String replacement = c.textArg(2, r, s);
            return v == null || target == null || replacement == null ? null : v.replace(target, replacement);
        }
    },
    REGEXP_EXTRACT("regexp_extract",
            "the first match of the regular expression (a literal, Java syntax): the group the third argument "
                    + "names, else group 1 if it has one, else the whole match; missing if none matches",
            "regexp_extract('id=17', 'id=([0-9]+)')", "'17'",
            Kind.TEXT, false, Kind.TEXT, Kind.TEXT, Kind.LONG) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            if (v == null) {
                return null;
            }
            Extract extract = (Extract) c.constant();
            Matcher m = extract.pattern().matcher(v);
            return m.find() ? m.group(extract.group()) : null;
        }
    },
    SPLIT("split",
            "the text split at each occurrence of the separator (a literal, plain text); `[i]` after it takes "
                    + "element i (0-based), missing past the end",
            "split('a/b/c', '/')[1]", "'b'",
            Kind.LIST, false, Kind.TEXT, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            String separator = c.textArg(1, r, s);
            if (v == null || separator == null) {
                return null;
            }
            return Arrays.asList((Object[]) v.split(Pattern.quote(separator), -1));
        }
    },
    SIZE("size",
            "the number of elements of an array (or of `[*]` values, or of a split), of entries of an object",
            "size(split('a/b/c', '/'))", "3",
            Kind.LONG, false, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            Object v = c.arg(0, r, s);
            if (absent(v)) {
                return null;
            }
            if (v instanceof List<?> list) {
                return (long) list.size();
            }
            if (v instanceof Map<?, ?> object) {
                return (long) object.size();
            }
            throw new InvalidEventException(Refusal.WRONG_KIND,
                    c.text(), describe(v), "is " + RecordTree.kind(v)
                    + ", where size takes an array or an object");
        }
    },
    TEXT("text",
            "a number or boolean as its text (`200`, `0.25`, `true`), an object or array as compact JSON, text "
                    + "as it is",
            "text(0.25)", "'0.25'",
            Kind.TEXT, false, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            Object v = c.arg(0, r, s);
            if (v == null || v instanceof String) {
                return v;
            }
            return RecordTree.isScalar(v) ? RecordTree.scalarText(v)
                    : new String(RecordTree.compactJson(v), StandardCharsets.UTF_8);
        }
    },
    LONG("long",
            "text of a whole number (white space around it allowed) or a whole number, as a whole number of 64 "
                    + "bits",
            "long(' 12 ')", "12",
            Kind.LONG, false, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            Object v = c.arg(0, r, s);
            if (v == null || v instanceof Long) {
                return v;
            }
            try {
                if (v instanceof String t) {
                    return Long.parseLong(t.strip());
                }
                if (v instanceof BigDecimal || v instanceof BigInteger) {
                    return new BigDecimal(v.toString()).longValueExact();
                }
            } catch (NumberFormatException | ArithmeticException e) {
                // below
            }
            throw new InvalidEventException(Refusal.WRONG_KIND,
                    c.text(), describe(v), "is " + RecordTree.kind(v)
                    + (v instanceof String ? " that is not a whole number of 64 bits" : "")
                    + ", where long takes text of a whole number or a whole number");
        }
    },
    NUMBER("number",
            "text of a number (white space around it allowed) or a number, as a number",
            "number('4.50')", "4.50",
            Kind.NUMBER, false, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            Object v = c.arg(0, r, s);
            if (v == null || v instanceof Number) {
                return v;
            }
            if (v instanceof String t) {
                try {
                    BigDecimal d = new BigDecimal(t.strip());
                    return d.scale() <= 0 && d.compareTo(LONG_MIN) >= 0 && d.compareTo(LONG_MAX) <= 0
                            ? (Object) d.longValueExact() : d;
                } catch (NumberFormatException e) {
                    // below
                }
            }
            throw new InvalidEventException(Refusal.WRONG_KIND,
                    c.text(), describe(v), "is " + RecordTree.kind(v)
                    + (v instanceof String ? " that is not a number" : "") + ", where number takes text of a number");
        }
    },
    CONVERT("convert",
            "the value in the form of a logical type (a literal): `date`, `time-millis`, `time-micros`, `time-nanos`, "
                    + "`time-zoned`, `timestamp-millis`, `timestamp-micros`, `timestamp-nanos`, `timestamp-zoned`, "
                    + "`year`, `decimal(p,s)`, `decimal`, `interval-micros`, `interval` -- from the units since the "
                    + "epoch or midnight, base64 unscaled bytes, or the text of such a form; times and timestamps in "
                    + "UTC with every digit of the unit (docs/cdc.md, Logical types)",
            "convert(1709208000000000, 'timestamp-micros')", "'2024-02-29T12:00:00.000000Z'",
            Kind.ANY, false, Kind.ANY, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            return ((LogicalType) c.constant()).convert(c.text(), c.arg(0, r, s));
        }
    },
    MD5("md5",
            "the lower-case hex MD5 digest of the text's UTF-8 bytes",
            "md5('abc')", "'900150983cd24fb0d6963f7d28e17f72'",
            Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : DigestUtils.md5Hex(v.getBytes(StandardCharsets.UTF_8));
        }
    },
    SHA256("sha256",
            "the lower-case hex SHA-256 digest of the text's UTF-8 bytes",
            "sha256('abc')", "'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'",
            Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : DigestUtils.sha256Hex(v.getBytes(StandardCharsets.UTF_8));
        }
    },
    /** Parsed into the node of {@code a | b} ({@code Parser.fallback}); never applied as a call. */
    COALESCE("coalesce",
            "the first argument that is present and not null; `a | b` is the same",
            "coalesce(host.name, 'none')", "'none'",
            Kind.ANY, true, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            throw new IllegalStateException("coalesce is parsed as a fallback");
        }
    },
    EXISTS("exists",
            "whether the path or source is present and not null",
            "exists(host.name)", "false",
            Kind.BOOL, false, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            return !absent(c.args().get(0).eval(r, s));
        }
    };

    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    final String token;
    /** What it does, in a line of Markdown: the reference's description. */
    final String description;
    /** A call that needs no record's fields (none it names is there), and what it gives, as literals. */
    final String example;
    final String gives;
    final Kind result;
    final boolean variadic;
    final Kind[] params;

    Functions(String token, String description, String example, String gives, Kind result, boolean variadic,
              Kind... params) {
        this.token = token;
        this.description = description;
        this.example = example;
        this.gives = gives;
        this.result = result;
        this.variadic = variadic;
        this.params = params;
    }

    abstract Object apply(Call call, Map<String, Object> record, RecordSource source);

    /** Fewest arguments: substring and regexp_extract have an optional last one. */
    int minArgs() {
        return this == SUBSTRING || this == REGEXP_EXTRACT ? params.length - 1 : params.length;
    }

    static Functions of(String token) {
        for (Functions fn : values()) {
            if (fn.token.equals(token)) {
                return fn;
            }
        }
        return null;
    }

    static String tokens() {
        return String.join(", ", Arrays.stream(values()).map(fn -> fn.token).toList());
    }

    /** The constant of a regexp_extract call: its compiled regular expression and group. */
    record Extract(Pattern pattern, int group) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Extract e && e.group == group && e.pattern.pattern().equals(pattern.pattern());
        }

        @Override
        public int hashCode() {
            return pattern.pattern().hashCode() * 31 + group;
        }
    }
}
