package dev.rowflow.keying.mapping;

import dev.rowflow.keying.TableRole;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cells a mapping writes into each of its tables, as anyone who reads those tables without
 * rowflow (a SQL view over them) must declare them: family, qualifier and how the value's bytes
 * are made. Derived from the mapping alone, in the order its configuration names them.
 *
 * <ul>
 *   <li>the data table: each single column entry ({@code message=m}) under its qualifier, each
 *       wildcard ({@code *=x.*}) as a qualifier prefix, whose qualifiers only the stored rows
 *       tell; with rows as columns (a time bucket), one cell per record under a prefix of any
 *       qualifier (the record's 4-byte millisecond offset in the bucket);</li>
 *   <li>an index table: {@code i:r}, the data row's key;</li>
 *   <li>a summary table: {@code s:n}, the count, kept by HBase increments (8 bytes);</li>
 *   <li>a table of element rows: that kind's columns (several kinds may share a table).</li>
 * </ul>
 */
public final class StoredColumns {

    /** How a cell's value bytes are made. */
    public enum Storage {
        /** UTF-8 text: a text as it is, a number or boolean as its text, an object or array as compact JSON. */
        TEXT,
        /** 4 bytes big-endian two's complement ({@code int32}), HBase's {@code Bytes.toBytes(int)}. */
        INT32,
        /** 8 bytes big-endian two's complement ({@code int64}, a count), HBase's {@code Bytes.toBytes(long)}. */
        INT64,
        /** The bytes as the record held them: the whole record ({@code $value}, rows as columns). */
        BYTES,
        /** The key of the data row an index row points at. */
        ROW_KEY
    }

    /**
     * One column of a table, or with {@code prefix} every qualifier that starts with
     * {@code qualifier} (a wildcard's; the empty prefix: any qualifier).
     *
     * @param source what the value is, as the configuration says it (for comments)
     */
    public record StoredColumn(String family, String qualifier, boolean prefix, Storage storage, String source) {
    }

    private StoredColumns() {
    }

    /**
     * Whether {@code table} holds, besides rows of its own key layout, rows whose keys run on past
     * it: element rows in the data table (the record-types and denormalized order designs put an
     * order's location and line item rows under the order's key, their type byte and positions).
     */
    public static boolean keysRunOn(EventMapping mapping, TableRole table) {
        MappingSpec spec = mapping.spec();
        return table == spec.dataTable() && spec.elementRows().stream().anyMatch(rows -> rows.table() == table);
    }

    /** The columns of every table {@code mapping} writes, data table first. */
    public static Map<TableRole, List<StoredColumn>> of(EventMapping mapping) {
        MappingSpec spec = mapping.spec();
        Map<TableRole, List<StoredColumn>> tables = new LinkedHashMap<>();
        if (spec.timeBucketMillis() > 0) {
            tables.put(spec.dataTable(), new ArrayList<>(List.of(new StoredColumn(spec.family(), "", true,
                    Storage.BYTES, "one record per cell, the qualifier its 4-byte millisecond offset in the row's "
                            + spec.timeBucketMillis() / 1000 + " s bucket"))));
        } else {
            tables.put(spec.dataTable(), columns(spec.family(), spec.columns()));
        }
        String index = text(EventMapping.INDEX_FAMILY);
        for (TableRole table : mapping.indexTables()) {
            tables.put(table, List.of(new StoredColumn(index, text(EventMapping.DATA_ROW_KEY), false, Storage.ROW_KEY,
                    "the key of the data row")));
        }
        if (spec.summary() != null) {
            tables.put(spec.summary().table(), List.of(new StoredColumn(text(EventMapping.SUMMARY_FAMILY),
                    text(EventMapping.COUNT), false, Storage.INT64, "the count of records in the period")));
        }
        for (MappingSpec.ElementRowsSpec rows : spec.elementRows()) {
            List<StoredColumn> columns = tables.computeIfAbsent(rows.table(), table -> new ArrayList<>());
            for (StoredColumn column : columns(spec.family(), rows.columns())) {
                if (!columns.contains(column)) {
                    columns.add(column);
                }
            }
        }
        return tables;
    }

    /**
     * Where the data rows of {@code mapping} keep a field's value alone, by field path: its single
     * columns of a plain path (no fallback, no function), as {@link KeyTranslation} reads them.
     */
    public static Map<String, KeyTranslation.FieldCell> fieldCells(EventMapping mapping) {
        MappingSpec spec = mapping.spec();
        Map<String, KeyTranslation.FieldCell> cells = new LinkedHashMap<>();
        if (spec.timeBucketMillis() > 0) {
            return cells;
        }
        for (ColumnSpec column : spec.columns()) {
            if (column.wildcard() || column.value() == null || column.value().path().isEmpty()
                    || column.value().path().get().hasFallbacks()) {
                continue;
            }
            cells.putIfAbsent(column.value().path().get().text(),
                    new KeyTranslation.FieldCell(spec.family(), column.qualifier(), storage(column)));
        }
        return cells;
    }

    /** The columns of a column list, in the family {@code family}. */
    static List<StoredColumn> columns(String family, List<ColumnSpec> specs) {
        List<StoredColumn> columns = new ArrayList<>();
        for (ColumnSpec column : specs) {
            if (column.wildcard()) {
                columns.add(new StoredColumn(family, column.qualifier(), true, Storage.TEXT, column.spec()));
                continue;
            }
            StoredColumn stored = new StoredColumn(family, column.qualifier(), false, storage(column), column.spec());
            // Two entries under one qualifier (a fallback written twice): the first names the cell.
            if (columns.stream().noneMatch(c -> !c.prefix() && c.qualifier().equals(stored.qualifier()))) {
                columns.add(stored);
            }
        }
        return columns;
    }

    private static Storage storage(ColumnSpec column) {
        if (column.type() == ValueType.INT32) {
            return Storage.INT32;
        }
        if (column.type() == ValueType.INT64) {
            return Storage.INT64;
        }
        // The record's own bytes are written as they are (RecordTree.cellBytes): the rest is text.
        String value = column.value().text();
        return value.equals("$value") || value.equals("$key") ? Storage.BYTES : Storage.TEXT;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
