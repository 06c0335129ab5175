package dev.rowflow.pipeline.sql;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.StoredColumns;
import dev.rowflow.keying.mapping.StoredColumns.StoredColumn;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.Ingest;
import dev.rowflow.pipeline.ingest.IngestTable;
import dev.rowflow.pipeline.ingest.PatternInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.sinks.hbase.HBaseUidStore;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.sql.PhoenixCatalog;
import dev.rowflow.sinks.sql.PhoenixView;
import dev.rowflow.sinks.sql.StoredQualifiers;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The Phoenix views of the tables a configuration writes ({@code rowflow tables sql}): every
 * declared input's data, index, summary and element-row tables, the log pipeline's and the order
 * designs' (each a declared input too), and the tables a {@code topic.pattern} input has made so
 * far. A table's key is the layout it records (the configured one
 * where the table does not exist yet); its columns are the cells its inputs' mappings write
 * ({@link StoredColumns}) and, for a wildcard, the qualifiers a sample of its rows holds. A table
 * several inputs write (the CUSTOMER++ order table) has the columns of them all.
 *
 * <p>Each index view ends with the join that reads the records it indexes, where its key holds
 * every part of its data table's key.
 */
public final class PhoenixViews {
    private PhoenixViews() {
    }

    /**
     * One view, the columns Phoenix has of it if it exists, and for an index the view of its data
     * table.
     */
    public record View(PhoenixView view, Optional<java.util.Set<String>> existing, Optional<PhoenixView> data) {
        /** The script: the view's DDL, then an index's join to its data as a comment. */
        public String script() {
            return view.ddl(existing) + join("i." + PhoenixView.quote(view.keyColumns().get(0)) + " = ?")
                    .map(sql -> "-- the records it indexes:\n--   " + sql + "\n").orElse("");
        }

        /**
         * The query of the data rows an index's rows with {@code where} (over alias {@code i})
         * point at, where the index key holds the whole data key ({@link PhoenixView#joinTo}).
         */
        public Optional<String> join(String where) {
            return data.flatMap(dataView -> view.joinTo(dataView, where));
        }
    }

    /**
     * The views of the tables {@code selected} accepts, in the order the configuration names them.
     *
     * @param sampleRows rows read per table to find the qualifiers its wildcards wrote
     */
    public static List<View> of(PipelinePlan plan, TableAdmin admin, Connection connection, int sampleRows,
                                Predicate<Selected> selected) throws IOException {
        Map<TableName, Table> tables = new LinkedHashMap<>();
        Map<TableName, TableName> dataTableOf = new LinkedHashMap<>();
        for (Ingest ingest : plan.ingests()) {
            if (!(ingest instanceof DeclaredInput input)) {
                continue;
            }
            Map<TableRole, List<StoredColumn>> columns = new LinkedHashMap<>(StoredColumns.of(input.mapping()));
            StoredColumns.of(input.indexMapping()).forEach(columns::putIfAbsent);
            Map<TableRole, RowKeyLayout> layouts = new LinkedHashMap<>(input.mapping().tableLayouts());
            input.indexMapping().tableLayouts().forEach(layouts::putIfAbsent);
            // Its own tables, and those of other inputs it writes rows into (CUSTOMER++: the customers' rows
            // in the order table).
            input.tables().forEach(table -> layouts.putIfAbsent(table.role(), table.definition().layout()));
            TableName data = plan.table(input.mapping().spec().dataTable()).definition().name();
            for (Map.Entry<TableRole, RowKeyLayout> written : layouts.entrySet()) {
                IngestTable table = plan.table(written.getKey());
                TableName name = table.definition().name();
                if (!selected.test(new Selected(input.name(), name.getNameAsString()))) {
                    continue;
                }
                Table entry = tables.computeIfAbsent(name, n -> new Table(table.definition().layout(), true,
                        new ArrayList<>(), new ArrayList<>(), new int[] {Integer.MAX_VALUE, 0}));
                entry.roles.add("input " + input.name() + " (" + written.getKey().name() + ")");
                entry.shape[0] = Math.min(entry.shape[0], written.getValue().parts().size());
                entry.shape[1] |= StoredColumns.keysRunOn(input.mapping(), written.getKey()) ? 1 : 0;
                for (StoredColumn column : columns.getOrDefault(written.getKey(), List.of())) {
                    if (!entry.columns.contains(column)) {
                        entry.columns.add(column);
                    }
                }
                if (input.indexes().containsValue(written.getKey())) {
                    dataTableOf.put(name, data);
                }
            }
        }
        // After the declared tables: a pattern's template may make names like theirs.
        for (Ingest ingest : plan.ingests()) {
            if (ingest instanceof PatternInput pattern) {
                addPatternTables(pattern, connection, selected, tables);
            }
        }
        // The UID table, where a key has uid parts: names for their ids.
        TableName uids = TableName.valueOf(plan.config().getString(RowflowConfig.UID_TABLE_CONFIG));
        if (plan.usesUids() && selected.test(new Selected(null, uids.getNameAsString()))) {
            RowKeyLayout names = RowKeyLayout.parse(HBaseUidStore.NAME_ROW_LAYOUT, null);
            tables.putIfAbsent(uids, new Table(names, false, new ArrayList<>(List.of("UID table")),
                    new ArrayList<>(HBaseUidStore.storedColumns()), new int[] {1, 0}));
        }
        Map<TableName, PhoenixView> views = new LinkedHashMap<>();
        for (Map.Entry<TableName, Table> entry : tables.entrySet()) {
            PhoenixView view = view(entry.getKey(), entry.getValue(), admin, connection, sampleRows);
            if (view != null) {
                views.put(entry.getKey(), view);
            }
        }
        List<View> result = new ArrayList<>();
        for (Map.Entry<TableName, PhoenixView> entry : views.entrySet()) {
            TableName data = dataTableOf.get(entry.getKey());
            Optional<PhoenixView> dataView = Optional.ofNullable(data == null ? null : views.get(data));
            result.add(new View(entry.getValue(), PhoenixCatalog.columnsOf(connection,
                    entry.getKey().getNameAsString()), dataView));
        }
        return result;
    }

    /** What a selection sees of a table: the input that writes it and its name. */
    public record Selected(String input, String table) {
    }

    /**
     * The data tables a {@code topic.pattern} input made so far (HBase's tables named as its
     * template makes them), each with the columns of the input's declaration.
     */
    private static void addPatternTables(PatternInput pattern, Connection connection, Predicate<Selected> selected,
                                         Map<TableName, Table> tables) throws IOException {
        DeclaredInput probe = pattern.probe();
        TableRole data = probe.mapping().spec().dataTable();
        List<StoredColumn> columns = StoredColumns.of(probe.mapping()).get(data);
        java.util.regex.Pattern names = pattern.topics().tables();
        try (org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
            for (TableName name : admin.listTableNames()) {
                if (names.matcher(name.getNameAsString()).matches()
                        && selected.test(new Selected(pattern.name(), name.getNameAsString()))) {
                    List<String> roles = new ArrayList<>(List.of("input " + pattern.name() + " (" + data.name() + ")"));
                    tables.putIfAbsent(name, new Table(null, true, roles, new ArrayList<>(columns),
                            new int[] {Integer.MAX_VALUE, 0}));
                }
            }
        }
    }

    /**
     * @param configured    the layout configured, or null where only the table knows it (a pattern's)
     * @param recordsLayout whether the table records its layout (all but the UID table)
     * @param shape         the parts every row's key has, and 1 if some rows' keys run on past the layout
     */
    private record Table(RowKeyLayout configured, boolean recordsLayout, List<String> roles, List<StoredColumn> columns,
                         int[] shape) {
    }

    private static PhoenixView view(TableName name, Table table, TableAdmin admin, Connection connection,
                                    int sampleRows) throws IOException {
        if (table == null) {
            return null;
        }
        Optional<String> recorded = table.recordsLayout() ? admin.layoutOf(name) : Optional.empty();
        if (recorded.isEmpty() && table.configured() == null) {
            return null;
        }
        RowKeyLayout layout = recorded.map(spec -> RowKeyLayout.parse(spec, null)).orElse(table.configured());
        String about = !table.recordsLayout() ? "the UID table's name rows (numeric substitution: a uid key part's names)"
                : "rows of " + String.join(", ", table.roles())
                        + (recorded.isPresent() ? "" : " (no such table yet: the configured layout)");
        boolean wildcards = table.columns().stream().anyMatch(StoredColumn::prefix);
        Map<String, java.util.Set<String>> stored = wildcards && recorded.isPresent() && sampleRows > 0
                ? StoredQualifiers.sample(connection, name, sampleRows) : Map.of();
        return new PhoenixView(name.getNameAsString(), about, layout, table.columns(), stored,
                new PhoenixView.Shape(Math.min(table.shape()[0], layout.parts().size()), table.shape()[1] == 1));
    }
}
