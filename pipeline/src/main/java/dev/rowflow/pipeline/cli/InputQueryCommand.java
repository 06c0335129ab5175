package dev.rowflow.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.sinks.hbase.TableDefinition;
import dev.rowflow.sinks.query.InputQueries;
import dev.rowflow.sinks.query.QueryResult;
import dev.rowflow.sinks.query.StoredRow;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code rowflow query input NAME path=value...}: a declared input's rows, by the leading parts of a key. */
@Command(name = "input", mixinStandardHelpOptions = true,
        description = {"Rows of a declared input: path=value for the leading parts of its data key (or, with --index, "
                + "of that index's key, each index row followed to its data row), --from/--to on the event time.",
                "Example: rowflow query input filebeat --index host host.name=web-01 --from 2026-11-22T08:00:00Z"})
final class InputQueryCommand extends QueryCommand.QueryAction {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "INPUT", description = "The input's name (inputs=...).")
    String input;

    @Parameters(index = "1..*", paramLabel = "PATH=VALUE", arity = "0..*",
            description = "Values of the key's leading parts, in the key's order.")
    List<String> values = new ArrayList<>();

    @Option(names = "--index", paramLabel = "NAME", description = "Read through this index of the input.")
    String index;

    @Option(names = "--from", paramLabel = "TIME", description = "Event times from this one, inclusive: epoch ms or "
            + "ISO-8601. Default: the beginning.")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Event times up to this one, exclusive. Default: no end.")
    String to;

    @Option(names = "--newest-first", description = "The data key read in reverse order (newest first on a time-led "
            + "key); through an index, newest event first.")
    boolean newestFirst;

    @Option(names = "--columns", paramLabel = "QUALIFIER", split = ",",
            description = "Only these columns (qualifiers), e.g. m,h. Default: all.")
    Set<String> columns;

    @Option(names = "--limit", defaultValue = "100", paramLabel = "N",
            description = "Most rows to print; 0 for all (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    int query(PipelinePlan plan, Connection connection, PrintWriter out) throws Exception {
        DeclaredInput declared = declaredInput(plan, "input", input);
        Map<String, TableRole> indexes = declared.indexes();
        if (index != null && !indexes.containsKey(index)) {
            throw new ParameterException(spec.commandLine(), "--index " + index + ": input " + input + " has the indexes "
                    + List.copyOf(indexes.keySet()));
        }
        EventMapping mapping = declared.mapping();
        Map<TableRole, TableName> names = new LinkedHashMap<>();
        declared.tables().forEach(table -> names.put(table.role(), table.definition().name()));
        TableRole indexRole = index == null ? null : indexes.get(index);
        RowKeyLayout layout = index == null ? mapping.dataLayout() : mapping.tableLayouts().get(indexRole);
        List<Object> leading = leading(layout, mapping);
        long fromMillis = from == null ? 0 : time("--from", from);
        long toMillis = to == null ? Long.MAX_VALUE : time("--to", to);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            InputQueries queries = new InputQueries(connection, mapping, names, pool);
            QueryResult<StoredRow> result = index == null
                    ? queries.data(leading, fromMillis, toMillis, newestFirst, limit)
                    : queries.index(indexRole, leading, fromMillis, toMillis, newestFirst, limit);
            print(result, mapping.dataLayout(), out);
        } finally {
            pool.shutdownNow();
        }
        return 0;
    }

    /** The PATH=VALUE arguments as values of the layout's leading parts, each of its part's type. */
    private List<Object> leading(RowKeyLayout layout, EventMapping mapping) {
        List<Object> leading = new ArrayList<>();
        List<KeyPart> parts = layout.parts();
        for (int i = 0; i < values.size(); i++) {
            String argument = values.get(i);
            int eq = argument.lastIndexOf('=');
            if (eq <= 0) {
                throw new ParameterException(spec.commandLine(), "'" + argument + "' is not PATH=VALUE");
            }
            String path = argument.substring(0, eq);
            String value = argument.substring(eq + 1);
            if (i >= parts.size() || !Expression.parse(parts.get(i).field()).equals(Expression.parse(path))) {
                throw new ParameterException(spec.commandLine(), "'" + argument + "': the values name the leading parts "
                        + "of '" + layout.spec() + "' in order, so value " + (i + 1) + " is for "
                        + (i < parts.size() ? parts.get(i).field() : "no part (the key has " + parts.size() + ")"));
            }
            KeyPart part = parts.get(i);
            if (part.encoding().textual()) {
                leading.add(value);
            } else if (Expression.parse(part.field()).equals(mapping.timePath())) {
                leading.add(time(path, value));
            } else {
                try {
                    leading.add(Long.parseLong(value));
                } catch (NumberFormatException e) {
                    throw new ParameterException(spec.commandLine(), "'" + argument + "': " + part.spec()
                            + " takes a whole number");
                }
            }
        }
        return leading;
    }

    private long time(String option, String value) {
        return QueryCommand.time(spec, option, value);
    }

    private void print(QueryResult<StoredRow> result, RowKeyLayout dataLayout, PrintWriter out) throws Exception {
        if (json) {
            ObjectNode root = JSON.createObjectNode();
            ArrayNode rows = root.putArray("rows");
            for (StoredRow row : result.rows()) {
                ObjectNode node = rows.addObject();
                node.put("rowKey", KeyBytes.toStringBinary(row.key()));
                ObjectNode key = node.putObject("key");
                RowTable.keyFields(dataLayout, row.key()).forEach(key::put);
                long time = row.time();
                node.put("time", Instant.ofEpochMilli(time).toString());
                node.put("timestamp", time);
                ObjectNode cells = node.putObject("columns");
                columns(row).forEach(cells::put);
            }
            root.put("scans", result.scans());
            root.put("danglingIndexRows", result.danglingIndexRows());
            out.println(JSON.writeValueAsString(root));
        } else {
            RowTable table = new RowTable(dataLayout);
            for (StoredRow row : result.rows()) {
                table.add(row.key(), row.time(), columns(row));
            }
            table.print(out, "");
            out.printf("-- %d rows, %d scans, %d dangling index rows skipped%n", result.rows().size(), result.scans(),
                    result.danglingIndexRows());
        }
    }

    /** The row's cells by qualifier, as text (the one encoding rowflow writes values in). */
    private Map<String, String> columns(StoredRow row) {
        Map<String, String> cells = new LinkedHashMap<>();
        for (StoredRow.StoredCell cell : row.cells()) {
            String qualifier = new String(cell.qualifier(), StandardCharsets.UTF_8);
            if (columns == null || columns.contains(qualifier)) {
                cells.put(qualifier, new String(cell.value(), StandardCharsets.UTF_8));
            }
        }
        return cells;
    }
}
