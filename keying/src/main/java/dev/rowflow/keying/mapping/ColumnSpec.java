package dev.rowflow.keying.mapping;

import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.SpecText;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a mapping's column list: which values of a record become cells of the data row,
 * and under which qualifier.
 *
 * <pre>
 * columns := entry ("," entry)*
 * entry   := value [":" type] ["=" qualifier] one value; the qualifier defaults to the path as written
 * value   := path | expression               an {@link Expression} other than a path needs a qualifier
 * type    := text | long | number | bool | json | int32 | int64   what the value must be (see {@link ValueType})
 *          | [path "."] "*" ["=" prefix "*"] every other leaf under path (or the whole record)
 * </pre>
 * A wildcard takes every leaf under its path that no explicit entry names: objects are descended
 * into, each leaf's qualifier is its dotted path below the wildcard's path appended to the prefix
 * (by default the wildcard's own path and a dot), arrays below it are one leaf (compact JSON); a
 * wildcard whose path is an array takes each element under its 0-based position
 * ({@code phoneNumbers.*=p*}: {@code p0}, {@code p1}...). Examples:
 * {@code message=m} (qualifier {@code m}), {@code log.level} (qualifier {@code log.level}),
 * {@code labels.*} ({@code labels.app}, {@code labels.team}...), {@code attributes.*=a.*}
 * ({@code a.pid}), {@code *=f.*} (every leaf, {@code f.host.name}...).
 *
 * An entry's value may be an expression ({@code lower(host.name)=h}, {@code concat(a, ':', b)=ab});
 * a condition as a value is written in parentheses ({@code (status >= 500)=err}), so that its
 * {@code =} is not read as the qualifier's.
 *
 * A typed entry ({@code status:long=s}) takes only values of its type; a value of another type
 * sets the record aside with the reason, or, with {@code noCellOnMismatch}, writes no cell.
 *
 * @param path             the value's path, or null where it is an expression; for a wildcard, the
 *                         path it is under, or null for the whole record
 * @param qualifier        the qualifier; for a wildcard, the prefix of its qualifiers
 * @param type             what the value must be, or null for any value
 * @param noCellOnMismatch a value of another type writes no cell instead of setting the record aside
 * @param value            the value of a single entry (its path as an expression, or the
 *                         expression); null for a wildcard
 */
public record ColumnSpec(FieldPath path, String qualifier, boolean wildcard, ValueType type, boolean noCellOnMismatch,
                         Expression value) {

    /** An untyped entry. */
    public ColumnSpec(FieldPath path, String qualifier, boolean wildcard) {
        this(path, qualifier, wildcard, null, false, wildcard ? null : Expression.of(path));
    }

    /**
     * Parses a column list whose typed entries write no cell for a value of another type
     * ({@code noCellOnMismatch}) instead of setting the record aside.
     *
     * @throws IllegalArgumentException naming the entry at fault
     */
    public static List<ColumnSpec> parseList(String text, boolean noCellOnMismatch) {
        List<ColumnSpec> columns = new ArrayList<>();
        for (ColumnSpec column : parseList(text)) {
            columns.add(new ColumnSpec(column.path, column.qualifier, column.wildcard, column.type, noCellOnMismatch,
                    column.value));
        }
        return columns;
    }

    /**
     * Parses a column list.
     *
     * @throws IllegalArgumentException naming the entry at fault
     */
    public static List<ColumnSpec> parseList(String text) {
        List<ColumnSpec> columns = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return columns;
        }
        for (String entry : SpecText.splitTopLevel(text, ',')) {
            columns.add(parse(entry.trim()));
        }
        return columns;
    }

    static ColumnSpec parse(String entry) {
        if (entry.isEmpty()) {
            throw new IllegalArgumentException("column list has an empty entry");
        }
        int eq = SpecText.lastIndexTopLevel(entry, '=');
        if (eq > 0 && "!<>=".indexOf(entry.charAt(eq - 1)) >= 0) {
            eq = -1; // an operator of an unparenthesized condition: no qualifier, refused below as a value
        }
        String pathText = (eq < 0 ? entry : entry.substring(0, eq)).trim();
        String qualifier = eq < 0 ? null : entry.substring(eq + 1).trim();
        if (qualifier != null && qualifier.isEmpty()) {
            throw new IllegalArgumentException("column '" + entry + "': empty qualifier after '='");
        }
        if (pathText.equals("*") || pathText.endsWith(".*")) {
            FieldPath under = pathText.equals("*") ? null : path(entry, pathText.substring(0, pathText.length() - 2));
            String prefix;
            if (qualifier == null) {
                prefix = under == null ? "" : under.text() + ".";
            } else if (qualifier.endsWith("*") && qualifier.indexOf('*') == qualifier.length() - 1) {
                prefix = qualifier.substring(0, qualifier.length() - 1);
            } else {
                throw new IllegalArgumentException("column '" + entry + "': a wildcard's qualifier is a prefix ending in"
                        + " '*', e.g. " + pathText + "=f.*");
            }
            return new ColumnSpec(under, prefix, true);
        }
        // A ':' outside quotes and parentheses names the type: no path holds one unquoted.
        int colon = SpecText.lastIndexTopLevel(pathText, ':');
        ValueType type = null;
        if (colon >= 0) {
            String token = pathText.substring(colon + 1).trim();
            type = ValueType.of(token);
            if (type == null) {
                throw new IllegalArgumentException("column '" + entry + "': unknown type '" + token + "' (types: "
                        + ValueType.tokens() + ")");
            }
            pathText = pathText.substring(0, colon).trim();
        }
        Expression value;
        try {
            value = Expression.parse(pathText);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("column '" + entry + "': " + e.getMessage(), e);
        }
        if (qualifier != null && qualifier.indexOf('*') >= 0) {
            throw new IllegalArgumentException("column '" + entry + "': '*' in the qualifier of a single value");
        }
        FieldPath path = value.path().orElse(null);
        if (path == null && qualifier == null) {
            throw new IllegalArgumentException("column '" + entry + "': an expression needs a qualifier, e.g. "
                    + (value.kind() == Expression.Kind.BOOL ? "(" + pathText + ")" : pathText) + "=q");
        }
        // A fallback's cell is named after its first path (host.name | host -> host.name) unless given a qualifier.
        return new ColumnSpec(path, qualifier == null ? path.alternatives().get(0).text() : qualifier, false, type,
                false, value);
    }

    private static FieldPath path(String entry, String text) {
        try {
            return FieldPath.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("column '" + entry + "': " + e.getMessage(), e);
        }
    }

    /** The spec form of this entry. */
    public String spec() {
        if (!wildcard) {
            String written = path == null ? (value.kind() == Expression.Kind.BOOL ? "(" + value.text() + ")"
                    : value.text()) : path.text();
            String typed = type == null ? written : written + ":" + type.token();
            return path != null && qualifier.equals(path.alternatives().get(0).text()) ? typed : typed + "=" + qualifier;
        }
        String pathText = path == null ? "*" : path.text() + ".*";
        String defaultPrefix = path == null ? "" : path.text() + ".";
        return qualifier.equals(defaultPrefix) ? pathText : pathText + "=" + qualifier + "*";
    }
}
