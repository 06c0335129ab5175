package dev.rowflow.keying.mapping;

import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Refuses, at start, a mapping that can never hold over the fields of a format with a schema:
 * a key part over a field no record has a value of the kind it takes (a {@code long} part over a
 * string field, a {@code text} part over a record), or a time over an object, an array or a
 * boolean. Run record by record, every record would be set aside with the same reason; refused
 * here, start-up names the key instead. Where the schema leaves the kind open
 * ({@link SchemaKind}), nothing is refused: the records decide.
 */
public final class SchemaCheck {
    private SchemaCheck() {
    }

    /**
     * Why the mapping can never hold.
     *
     * @param table the table whose key layout is at fault, or null for the time
     * @param spec  the layout (or the time path) as declared
     */
    public record Refusal(TableRole table, String spec, String why) {
    }

    /**
     * The first part of {@code mapping} that can never hold, by {@code kinds} (what every value
     * at a path is, by the format's schema), or empty.
     */
    public static Optional<Refusal> check(EventMapping mapping, Function<FieldPath, Optional<SchemaKind>> kinds) {
        Expression time = mapping.timePath();
        Optional<SchemaKind> timeKind = time.path().flatMap(kinds);
        if (timeKind.isPresent() && timeKind.get() != SchemaKind.TEXT && timeKind.get() != SchemaKind.WHOLE_NUMBER) {
            return Optional.of(new Refusal(null, time.text(), "the schema types " + time.text() + " as "
                    + timeKind.get().described() + ", which no time format reads: every record would be set aside"));
        }
        for (Map.Entry<TableRole, RowKeyLayout> layout : mapping.tableLayouts().entrySet()) {
            for (KeyPart part : layout.getValue().parts()) {
                Expression value;
                try {
                    value = Expression.parse(part.field());
                } catch (IllegalArgumentException e) {
                    continue; // compiling refused it already
                }
                if (value.equals(time) || value.path().isEmpty()) {
                    continue; // the event time, or an expression whose value the records decide
                }
                Optional<SchemaKind> kind = kinds.apply(value.path().get());
                if (kind.isEmpty() || takes(part, kind.get())) {
                    continue;
                }
                return Optional.of(new Refusal(layout.getKey(), layout.getValue().spec(), "part '" + part.spec()
                        + "': the schema types " + part.field() + " as " + kind.get().described() + ", which a "
                        + part.encoding().token() + " key part never takes: every record would be set aside"
                        + (part.encoding().textual() ? "" : " (key it as text, or convert it with long(...))")));
            }
        }
        return Optional.empty();
    }

    /** Whether a value of {@code kind} can make {@code part}: text parts take scalars, numeric ones whole numbers. */
    private static boolean takes(KeyPart part, SchemaKind kind) {
        return part.encoding().textual() ? kind != SchemaKind.OBJECT && kind != SchemaKind.ARRAY
                : kind == SchemaKind.WHOLE_NUMBER;
    }
}
