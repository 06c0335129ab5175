package dev.rowflow.keying.mapping;

import dev.rowflow.keying.TableRole;

import java.util.List;
import java.util.Objects;

/**
 * A declared mapping, as configured: how a record of one input becomes a data row, index rows and
 * summary counters. Format-free (the record arrives as a {@link RecordTree}) and config-free;
 * {@link EventMapping#compile} checks it and turns it into the per-record code.
 *
 * @param dataTable        the role of the data table
 * @param family           the data table's one family
 * @param keyLayout        the data row key, a {@code RowKeyLayout} spec over field paths
 * @param columns          the data row's cells
 * @param timePath         where the event time is; key parts over it take the event time in ms
 * @param timeFormat       how the value there becomes epoch milliseconds
 * @param recordTimeWhenMissing use the Kafka record's timestamp when the record has no event
 *                         time; otherwise such a record is set aside
 * @param timeBucketMillis 0 for one row per record; else rows as columns: one row per bucket of this
 *                         length, one cell per record holding the whole record (seed 002, 1.11.2)
 * @param indexes          dual-written index tables (seed 002, 1.9.3)
 * @param summary          counters per key and period (seed 002, 1.9.4), or null
 * @param maxCellBytes     largest cell a value may become (0: no limit of rowflow's own)
 * @param timestamps       what to do with an event time before 1970 or too far ahead of its
 *                         record's timestamp
 * @param ttl              an expression of the TTL in ms of the record's data and index rows
 *                         ({@code Mutation#setTTL}), or null: the tables' own
 * @param elementRows      rows made per element of an array of the record, each kind in order
 */
public record MappingSpec(TableRole dataTable, String family, String keyLayout, List<ColumnSpec> columns,
                          String timePath, TimeFormat timeFormat, boolean recordTimeWhenMissing,
                          long timeBucketMillis, List<IndexSpec> indexes, SummarySpec summary, int maxCellBytes,
                          TimestampPolicy timestamps, String ttl, List<ElementRowsSpec> elementRows) {

    /** A mapping that makes no rows per array element. */
    public MappingSpec(TableRole dataTable, String family, String keyLayout, List<ColumnSpec> columns,
                       String timePath, TimeFormat timeFormat, boolean recordTimeWhenMissing,
                       long timeBucketMillis, List<IndexSpec> indexes, SummarySpec summary, int maxCellBytes,
                       TimestampPolicy timestamps, String ttl) {
        this(dataTable, family, keyLayout, columns, timePath, timeFormat, recordTimeWhenMissing, timeBucketMillis,
                indexes, summary, maxCellBytes, timestamps, ttl, List.of());
    }

    /** A mapping whose rows take their tables' TTL. */
    public MappingSpec(TableRole dataTable, String family, String keyLayout, List<ColumnSpec> columns,
                       String timePath, TimeFormat timeFormat, boolean recordTimeWhenMissing,
                       long timeBucketMillis, List<IndexSpec> indexes, SummarySpec summary, int maxCellBytes,
                       TimestampPolicy timestamps) {
        this(dataTable, family, keyLayout, columns, timePath, timeFormat, recordTimeWhenMissing, timeBucketMillis,
                indexes, summary, maxCellBytes, timestamps, null);
    }

    /** A mapping with the {@link TimestampPolicy#LENIENT lenient} timestamp policy. */
    public MappingSpec(TableRole dataTable, String family, String keyLayout, List<ColumnSpec> columns,
                       String timePath, TimeFormat timeFormat, boolean recordTimeWhenMissing,
                       long timeBucketMillis, List<IndexSpec> indexes, SummarySpec summary, int maxCellBytes) {
        this(dataTable, family, keyLayout, columns, timePath, timeFormat, recordTimeWhenMissing, timeBucketMillis,
                indexes, summary, maxCellBytes, TimestampPolicy.LENIENT);
    }

    public MappingSpec {
        Objects.requireNonNull(dataTable, "dataTable");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(keyLayout, "keyLayout");
        Objects.requireNonNull(timePath, "timePath");
        Objects.requireNonNull(timeFormat, "timeFormat");
        Objects.requireNonNull(timestamps, "timestamps");
        columns = List.copyOf(columns);
        indexes = List.copyOf(indexes);
        elementRows = List.copyOf(elementRows);
    }

    /** This mapping under another timestamp policy. */
    public MappingSpec withTimestamps(TimestampPolicy policy) {
        return new MappingSpec(dataTable, family, keyLayout, columns, timePath, timeFormat, recordTimeWhenMissing,
                timeBucketMillis, indexes, summary, maxCellBytes, policy, ttl, elementRows);
    }

    /** This mapping with the TTL of each record's rows from an expression (null: the tables'). */
    public MappingSpec withTtl(String expression) {
        return new MappingSpec(dataTable, family, keyLayout, columns, timePath, timeFormat, recordTimeWhenMissing,
                timeBucketMillis, indexes, summary, maxCellBytes, timestamps, expression, elementRows);
    }

    /** This mapping making these rows per array element too. */
    public MappingSpec withElementRows(List<ElementRowsSpec> rows) {
        return new MappingSpec(dataTable, family, keyLayout, columns, timePath, timeFormat, recordTimeWhenMissing,
                timeBucketMillis, indexes, summary, maxCellBytes, timestamps, ttl, rows);
    }

    /**
     * A dual-written index table: its rows, keyed by {@code keyLayout} over field paths, hold the
     * data row's key in {@code i:r}. Its key parts must be columns of the data row (or the event
     * time), so that index verify and backfill can rebuild an index row from the data row.
     *
     * @param skipWhenMissing a record without a value (absent or null) for one of the key's parts:
     *                        true, it has no row in this index and its data row is written (a
     *                        sparse index); false, the record is set aside
     */
    public record IndexSpec(String name, TableRole table, String keyLayout, boolean skipWhenMissing) {

        /** A sparse index: records without a value for one of its parts have no row in it. */
        public IndexSpec(String name, TableRole table, String keyLayout) {
            this(name, table, keyLayout, true);
        }
    }

    /**
     * A summary table: one counter {@code s:n} per key, the key's part over the time path holding
     * the start of the record's period (seed 002, 1.9.4 and 1.5.1).
     */
    public record SummarySpec(TableRole table, String keyLayout, long periodMillis) {
        public SummarySpec {
            if (periodMillis <= 0) {
                throw new IllegalArgumentException("a summary period must be positive, got " + periodMillis + " ms");
            }
        }
    }

    /**
     * Rows made per element of an array in the record, as SQL's {@code UNNEST ... WITH ORDINALITY}
     * makes them: an order's shipping locations and line items, each a row of its own (seed 002,
     * 1.11.3.2), in the data table or another.
     *
     * <p>{@code each} names the arrays, outermost first, and the alias each element is read under:
     * {@code shippingLocations as location, location.lineItems as item} makes one row per line
     * item of each location. The key layout and the columns read the record as it is plus each
     * alias's element ({@code item.quantity}, {@code location.city}, {@code orderNumber}),
     * {@code $position.<alias>} (the element's 1-based position in its array) and
     * {@code $ordinal} (the row's 1-based number among the record's rows of this kind: line items
     * counted across all locations). A part over the time path takes the event time. An absent or
     * null array makes no rows; a null element makes no row (the positions of the others stay).
     * The rows take the record's event time and TTL, and the data table's family.
     *
     * @param name the kind of rows, for messages and configuration keys
     */
    public record ElementRowsSpec(String name, TableRole table, String each, String keyLayout,
                                  List<ColumnSpec> columns) {
        public ElementRowsSpec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(each, "each");
            Objects.requireNonNull(keyLayout, "keyLayout");
            columns = List.copyOf(columns);
        }
    }
}
