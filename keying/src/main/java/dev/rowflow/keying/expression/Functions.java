package dev.rowflow.keying.expression;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.expression.Expression.Kind;
import dev.rowflow.keying.expression.Nodes.Call;
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

/** The functions: name, arguments (kinds; the last repeats if {@code variadic}), result. */
enum Functions {
    LOWER("lower", Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : v.toLowerCase(Locale.ROOT);
        }
    },
    UPPER("upper", Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : v.toUpperCase(Locale.ROOT);
        }
    },
    TRIM("trim", Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : v.strip();
        }
    },
    CONCAT("concat", Kind.TEXT, true, Kind.TEXT) {
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
    SUBSTRING("substring", Kind.TEXT, false, Kind.TEXT, Kind.LONG, Kind.LONG) {
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
    REPLACE("replace", Kind.TEXT, false, Kind.TEXT, Kind.TEXT, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            String target = c.textArg(1, r, s);
            String replacement = c.textArg(2, r, s);
            return v == null || target == null || replacement == null ? null : v.replace(target, replacement);
        }
    },
    REGEXP_EXTRACT("regexp_extract", Kind.TEXT, false, Kind.TEXT, Kind.TEXT, Kind.LONG) {
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
    SPLIT("split", Kind.LIST, false, Kind.TEXT, Kind.TEXT) {
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
    /** The number of elements of an array (or {@code split} list), of entries of an object. */
    SIZE("size", Kind.LONG, false, Kind.ANY) {
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
            throw new InvalidEventException(c.text(), describe(v), "is " + RecordTree.kind(v)
                    + ", where size takes an array or an object");
        }
    },
    TEXT("text", Kind.TEXT, false, Kind.ANY) {
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
    LONG("long", Kind.LONG, false, Kind.ANY) {
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
            throw new InvalidEventException(c.text(), describe(v), "is " + RecordTree.kind(v)
                    + (v instanceof String ? " that is not a whole number of 64 bits" : "")
                    + ", where long takes text of a whole number or a whole number");
        }
    },
    NUMBER("number", Kind.NUMBER, false, Kind.ANY) {
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
            throw new InvalidEventException(c.text(), describe(v), "is " + RecordTree.kind(v)
                    + (v instanceof String ? " that is not a number" : "") + ", where number takes text of a number");
        }
    },
    MD5("md5", Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : DigestUtils.md5Hex(v.getBytes(StandardCharsets.UTF_8));
        }
    },
    SHA256("sha256", Kind.TEXT, false, Kind.TEXT) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            String v = c.textArg(0, r, s);
            return v == null ? null : DigestUtils.sha256Hex(v.getBytes(StandardCharsets.UTF_8));
        }
    },
    /** Parsed into the node of {@code a | b} ({@code Parser.fallback}); never applied as a call. */
    COALESCE("coalesce", Kind.ANY, true, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            throw new IllegalStateException("coalesce is parsed as a fallback");
        }
    },
    EXISTS("exists", Kind.BOOL, false, Kind.ANY) {
        @Override
        Object apply(Call c, Map<String, Object> r, RecordSource s) {
            return !absent(c.args().get(0).eval(r, s));
        }
    };

    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    final String token;
    final Kind result;
    final boolean variadic;
    final Kind[] params;

    Functions(String token, Kind result, boolean variadic, Kind... params) {
        this.token = token;
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
