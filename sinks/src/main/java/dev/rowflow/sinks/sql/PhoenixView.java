package dev.rowflow.sinks.sql;

import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.SpecText;
import dev.rowflow.keying.mapping.StoredColumns.Storage;
import dev.rowflow.keying.mapping.StoredColumns.StoredColumn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The Apache Phoenix view of one rowflow table: its key layout as a composite primary key of the
 * types whose bytes rowflow writes ({@link PhoenixTypes}), its cells as {@code "family"."qualifier"}
 * columns, {@code COLUMN_ENCODED_BYTES=0} (Phoenix reads the qualifiers as they are).
 *
 * <p>{@link #ddl(Optional)} is the {@code CREATE VIEW} of a view Phoenix does not have yet, or for
 * one it has the {@code ALTER VIEW ... ADD IF NOT EXISTS} of the cell columns it lacks (a column
 * the configuration added, a qualifier a wildcard wrote since). A wildcard's qualifiers are the
 * ones {@code stored} says the table holds (a sample of its rows).
 *
 * <p>Key columns are named by their part's field (its first path where it has fallbacks:
 * {@code event.dataset | 'generic'} is {@code "event.dataset"}), the salt {@code "salt"}: the names
 * {@code rowflow query} prints. Identifiers are quoted, so their case is kept.
 */
public final class PhoenixView {
    private static final String MAX_LONG = "9223372036854775807";
    /** The key column of the bytes after the layout's parts, where rows of other kinds have them. */
    public static final String REST = "rest";

    private final String table;
    private final String about;
    private final RowKeyLayout layout;
    private final List<String> keyColumns;
    private final Map<String, String> keyTypes = new LinkedHashMap<>();
    private final Map<String, String> cellTypes = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final Shape shape;
    private final int partColumns;
    private final List<String> afterCreate = new ArrayList<>();
    /** What the cells are where no column can name them (rows as columns), else null. */
    private String unnamedCells;

    /**
     * How the keys of a table's rows relate to its layout when it holds rows of several kinds.
     *
     * @param parts  the layout's parts every row's key has: the parts after them are nullable
     *               columns (CUSTOMER++: a customer's row ends after its record type)
     * @param runOn  whether some rows' keys run on past the layout: their rest is the last key
     *               column, {@value #REST} ({@code VARBINARY}, null for the rows of the layout)
     */
    public record Shape(int parts, boolean runOn) {
        /** Every row's key is the layout's. */
        public static Shape of(RowKeyLayout layout) {
            return new Shape(layout.parts().size(), false);
        }
    }

    /**
     * @param table   the HBase table's name
     * @param about   what the table is, for the first comment line
     * @param layout  the key layout the table records
     * @param columns the cells the configuration writes into it ({@code StoredColumns})
     * @param stored  qualifiers found in the table, by family (a sample of its rows); may be empty
     * @param shape   the keys of the rows of other kinds the table holds
     */
    public PhoenixView(String table, String about, RowKeyLayout layout, List<StoredColumn> columns,
                       Map<String, Set<String>> stored, Shape shape) {
        this.table = table;
        this.about = about;
        this.layout = layout;
        this.shape = shape;
        // Phoenix refuses a nullable fixed-width key column: from the first fixed-width part some
        // rows' keys may lack on, the key's bytes are the rest column.
        int parts = layout.parts().size();
        int own = parts;
        for (int i = shape.parts(); i < parts; i++) {
            if (!layout.parts().get(i).encoding().terminated()) {
                own = i;
                break;
            }
        }
        this.partColumns = own;
        List<String> keys = new ArrayList<>(keyColumnNames(layout).subList(0,
                own + (layout.salt().width() == 0 ? 0 : 1)));
        if (shape.runOn() || own < parts) {
            keys.add(REST);
            notes.add(quote(REST) + ": the rest of the key where rows of other kinds run on"
                    + (own < parts ? ", from " + quote(layout.parts().get(own).field()) : " past the layout")
                    + " (the row type byte and positions of an order's rows: 31 the order, 32 a location, 33 a line "
                    + "item); null where the key ends");
        }
        this.keyColumns = List.copyOf(keys);
        String salt = PhoenixTypes.of(layout.salt());
        if (salt != null) {
            keyTypes.put(keyColumns.get(0), salt);
            notes.add(quote(keyColumns.get(0)) + ": " + saltNote(layout, quote(keyColumns.get(0))));
        }
        int offset = salt == null ? 0 : 1;
        if (shape.parts() < own) {
            notes.add(keyColumns.subList(offset + shape.parts(), offset + own).stream()
                    .map(PhoenixView::quote).collect(Collectors.joining(", "))
                    + ": null in the rows whose keys end before (CUSTOMER++: a customer's row)");
        }
        for (int i = 0; i < own; i++) {
            KeyPart part = layout.parts().get(i);
            String column = keyColumns.get(i + offset);
            keyTypes.put(column, PhoenixTypes.of(part));
            String note = PhoenixTypes.note(part, quote(column));
            if (note != null) {
                notes.add(quote(column) + ": " + note);
            }
        }
        addCells(columns, stored);
        // Phoenix's CREATE VIEW takes no cell column named as a key column ("id" and "d"."id" of a
        // change event's table), its ALTER VIEW does: such cells come last, added after the CREATE.
        for (String cell : List.copyOf(cellTypes.keySet())) {
            if (keyColumns.contains(qualifierOf(cell))) {
                String type = cellTypes.remove(cell);
                cellTypes.put(cell, type);
                afterCreate.add(cell);
            }
        }
    }

    /** The qualifier of a cell column's name {@code "family"."qualifier"}. */
    private static String qualifierOf(String cell) {
        int dot = cell.indexOf("\".\"");
        return cell.substring(dot + 3, cell.length() - 1).replace("\"\"", "\"");
    }

    private void addCells(List<StoredColumn> columns, Map<String, Set<String>> stored) {
        Set<String> noted = new LinkedHashSet<>();
        for (StoredColumn column : columns) {
            if (!column.prefix()) {
                String name = cell(column.family(), column.qualifier());
                cellTypes.putIfAbsent(name, PhoenixTypes.of(column.storage()));
                String note = PhoenixTypes.note(column.storage());
                if (note != null && noted.add(note)) {
                    notes.add(name + ": " + note);
                }
            }
        }
        for (StoredColumn column : columns) {
            if (!column.prefix()) {
                continue;
            }
            if (column.storage() == Storage.BYTES && column.qualifier().isEmpty()) {
                unnamedCells = "cells of family \"" + column.family() + "\": " + column.source()
                        + "; no SQL column can name them";
                notes.add(unnamedCells);
                continue;
            }
            notes.add("\"" + column.family() + "\".\"" + column.qualifier() + "*\": the qualifiers " + column.source()
                    + " wrote into the rows sampled; run again to add those written since");
            for (String qualifier : new java.util.TreeSet<>(stored.getOrDefault(column.family(), Set.of()))) {
                if (qualifier.startsWith(column.qualifier())) {
                    cellTypes.putIfAbsent(cell(column.family(), qualifier), PhoenixTypes.of(column.storage()));
                }
            }
        }
    }

    /** The HBase table's name, which is the view's. */
    public String table() {
        return table;
    }

    /** The key layout the view reads. */
    public RowKeyLayout layout() {
        return layout;
    }

    /** The primary key's column names, in key order, the salt's first. */
    public List<String> keyColumns() {
        return keyColumns;
    }

    /** The cell columns as {@code "family"."qualifier"}, with their types. */
    public Map<String, String> cellColumns() {
        return java.util.Collections.unmodifiableMap(cellTypes);
    }

    /** How many of the layout's parts have a column of their own (the others are in {@value #REST}). */
    public int partColumns() {
        return partColumns;
    }

    /** The key columns with their types, in key order ({@value #REST} not among them). */
    public Map<String, String> keyTypes() {
        return java.util.Collections.unmodifiableMap(keyTypes);
    }

    /** The view's name, quoted. */
    public String name() {
        return quote(table);
    }

    /** The script that creates the view; ends with a newline. */
    public String ddl() {
        return ddl(Optional.empty());
    }

    /**
     * The script that creates the view, or for a view that exists ({@code existing}: its columns,
     * as {@link PhoenixCatalog} reads them) adds the cell columns it lacks; ends with a newline.
     */
    public String ddl(Optional<Set<String>> existing) {
        StringBuilder sql = new StringBuilder();
        sql.append("-- ").append(table).append(": ").append(about).append(", key layout ").append(layout.spec())
                .append('\n');
        notes.forEach(note -> sql.append("--   ").append(note).append('\n'));
        if (existing.isPresent()) {
            List<String> missing = cellTypes.keySet().stream().filter(c -> !existing.get().contains(c)).toList();
            if (missing.isEmpty()) {
                return sql.append("-- the view ").append(name()).append(" exists with every column\n").toString();
            }
            return sql.append("ALTER VIEW ").append(name()).append(" ADD IF NOT EXISTS\n    ")
                    .append(missing.stream().map(c -> c + " " + cellTypes.get(c)).collect(Collectors.joining(",\n    ")))
                    .append(";\n").toString();
        }
        if (unnamedCells != null && cellTypes.isEmpty()) {
            // A view of the key alone would have Phoenix add a column family of its own to the table.
            return sql.append("-- no view: read these rows with `rowflow query`\n").toString();
        }
        sql.append("CREATE VIEW ").append(name()).append(" (\n");
        int required = shape.parts() + (layout.salt().width() == 0 ? 0 : 1);
        int position = 0;
        for (Map.Entry<String, String> key : keyTypes.entrySet()) {
            sql.append("    ").append(quote(key.getKey())).append(' ').append(key.getValue())
                    .append(position++ < required ? " NOT NULL,\n" : ",\n");
        }
        if (keyColumns.get(keyColumns.size() - 1).equals(REST)) {
            sql.append("    ").append(quote(REST)).append(" VARBINARY,\n");
        }
        cellTypes.forEach((column, type) -> {
            if (!afterCreate.contains(column)) {
                sql.append("    ").append(column).append(' ').append(type).append(",\n");
            }
        });
        sql.append("    CONSTRAINT \"pk\" PRIMARY KEY (")
                .append(keyColumns.stream().map(PhoenixView::quote).collect(Collectors.joining(", ")))
                .append(")\n) COLUMN_ENCODED_BYTES=0;\n");
        if (!afterCreate.isEmpty()) {
            sql.append("ALTER VIEW ").append(name()).append(" ADD IF NOT EXISTS\n    ")
                    .append(afterCreate.stream().map(c -> c + " " + cellTypes.get(c)).collect(Collectors.joining(",\n    ")))
                    .append(";\n");
        }
        return sql.toString();
    }

    /**
     * A query of the data rows index rows point at: {@code data} (alias {@code d}) joined to this
     * view (the index, alias {@code i}) on every part of the data key, each equal to the index part
     * over the same field; a {@code ts} data part and an {@code rts} index part (the reverse time)
     * are compared in the {@code WHERE} clause, with {@code where} (over {@code i}, may be null).
     * Empty if the index key lacks a part of the data key or holds it in an encoding the join cannot
     * undo (a hash of a text).
     *
     * <p>Only plain column equalities are join keys: Phoenix 5.2.1's optimizer fails on a join key
     * that is an expression ({@code IndexOutOfBoundsException} in {@code WhereOptimizer}).
     */
    public java.util.Optional<String> joinTo(PhoenixView data, String where) {
        List<String> on = new ArrayList<>();
        List<String> filters = new ArrayList<>();
        List<KeyPart> indexParts = layout.parts();
        int dataOffset = data.layout.salt().width() == 0 ? 0 : 1;
        int indexOffset = layout.salt().width() == 0 ? 0 : 1;
        for (int i = 0; i < data.layout.parts().size(); i++) {
            KeyPart part = data.layout.parts().get(i);
            int at = IntStream.range(0, indexParts.size()).filter(j -> indexParts.get(j).field().equals(part.field()))
                    .findFirst().orElse(-1);
            if (at < 0) {
                return java.util.Optional.empty();
            }
            String d = "d." + quote(data.keyColumns.get(i + dataOffset));
            String x = "i." + quote(keyColumns.get(at + indexOffset));
            String dataToken = part.encoding().token();
            String indexToken = indexParts.get(at).encoding().token();
            if (dataToken.equals(indexToken)) {
                on.add(d + " = " + x);
            } else if (dataToken.equals("ts") && indexToken.equals("rts")) {
                filters.add("TO_NUMBER(" + d + ") = " + MAX_LONG + " - " + x);
            } else if (dataToken.equals("rts") && indexToken.equals("ts")) {
                filters.add(d + " = " + MAX_LONG + " - TO_NUMBER(" + x + ")");
            } else {
                return java.util.Optional.empty();
            }
        }
        if (on.isEmpty()) {
            return java.util.Optional.empty();
        }
        if (where != null && !where.isBlank()) {
            filters.add(where);
        }
        return java.util.Optional.of("SELECT d.* FROM " + data.name() + " d JOIN " + name() + " i ON "
                + String.join(" AND ", on) + (filters.isEmpty() ? "" : " WHERE " + String.join(" AND ", filters)));
    }

    /** {@code name} as a quoted SQL identifier. */
    public static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static String cell(String family, String qualifier) {
        return quote(family) + "." + quote(qualifier);
    }

    private static String saltNote(RowKeyLayout layout, String column) {
        if (layout.salt().buckets().isPresent()) {
            int buckets = layout.salt().buckets().getAsInt();
            return "the bucket a hash of the key put the row in, 0.." + (buckets - 1) + ": a query bounded on the "
                    + "parts after it reads every bucket, as a skip scan when it names them all: WHERE " + column
                    + " IN (" + IntStream.range(0, buckets).mapToObj(String::valueOf).collect(Collectors.joining(", "))
                    + ") AND ...";
        }
        return "a prefix a hash of the key made (" + layout.salt().spec() + "); a query bounded on the parts after "
                + "it reads every prefix";
    }

    /** Key column names: the salt's, then each part's field (first path of a fallback), made unique. */
    static List<String> keyColumnNames(RowKeyLayout layout) {
        List<String> names = new ArrayList<>();
        if (layout.salt().width() > 0) {
            names.add("salt");
        }
        for (KeyPart part : layout.parts()) {
            String name = SpecText.splitTopLevel(part.field(), '|').get(0).trim();
            String unique = name;
            for (int n = 2; names.contains(unique); n++) {
                unique = name + "_" + n;
            }
            names.add(unique);
        }
        return List.copyOf(names);
    }
}
