package dev.rowflow.demo;

import dev.rowflow.pipeline.cli.RowTable;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a demo run did, printed for people or as one JSON object ({@code --json}).
 *
 * @param events             events produced to the logs topic
 * @param dataRows           rows in the data table afterwards
 * @param indexRows          rows in the index table afterwards
 * @param deadLetters        records on the dead-letter topic
 * @param seconds            from the first event produced to the last offset committed (every row in HBase)
 * @param eventsPerSecond    events / seconds
 * @param rowsPerSecond      (data rows + index rows) / seconds
 * @param dataLayout         row key layout of the data table
 * @param indexLayout        row key layout of the index table
 * @param rowsPerBucket      data rows in each salt bucket (empty unless the data layout is bucketed)
 * @param largestBucketShare rows of the fullest bucket divided by a fair share (1.0 = perfectly even)
 * @param sample             a few rows read back from HBase and decoded
 * @param summaryRows        rows of the log summary table (host, event type, hour)
 * @param summaryCount       sum of the summary counters: every event counted once
 * @param customers          customers produced
 * @param orders             orders produced
 * @param orderIndexRows     rows of the order index table
 * @param orderDesign        the order design and whether CUSTOMER++ is on
 * @param customerScan       one customer's everything-scan: the rows of one scan of its key prefix
 */
public record DemoSummary(
        long events,
        long dataRows,
        long indexRows,
        long deadLetters,
        double seconds,
        double eventsPerSecond,
        double rowsPerSecond,
        String dataLayout,
        String indexLayout,
        List<Long> rowsPerBucket,
        double largestBucketShare,
        List<SampleRow> sample,
        long summaryRows,
        long summaryCount,
        long customers,
        long orders,
        long orderIndexRows,
        String orderDesign,
        CustomerScan customerScan) {

    /** The rows one scan of {@code [customer, customer+1)} returned from the order table. */
    public record CustomerScan(String customerNumber, String name, String startRow, String stopRow,
                               List<ScannedRow> rows) {
    }

    /** One row of the customer scan: its key, record type and what it holds. */
    public record ScannedRow(String rowKey, String recordType, String content) {
    }

    /** One data row read back: its key, the key's parts decoded, and how it was found. */
    public record SampleRow(String rowKey, Map<String, String> key, String time, String hostname, String eventType,
                            String message, String foundVia) {
    }

    /** Prints the summary for people. */
    void print(PrintWriter out) {
        out.printf("%nrowflow demo summary%n");
        out.printf("  events produced   %,d%n", events());
        out.printf("  data rows         %,d%n", dataRows());
        out.printf("  index rows        %,d%n", indexRows());
        out.printf("  dead letters      %,d%n", deadLetters());
        out.printf("  time              %.1f s (first event produced -> last offset committed)%n", seconds());
        out.printf("  throughput        %,.0f events/s, %,.0f rows/s%n", eventsPerSecond(), rowsPerSecond());
        out.printf("  data key layout   %s%n", dataLayout());
        out.printf("  index key layout  %s%n", indexLayout());
        if (!rowsPerBucket().isEmpty()) {
            out.printf("  rows per bucket   %s, largest %.2f x fair share%n", rowsPerBucket(),
                    largestBucketShare());
        }
        out.printf("  summary table     %,d rows (host, event type, hour), counting %,d events%n",
                summaryRows(), summaryCount());
        out.printf("  customers/orders  %,d customers, %,d orders (%s), %,d order index rows%n", customers(),
                orders(), orderDesign(), orderIndexRows());
        DemoSummary.CustomerScan scan = customerScan();
        out.printf("  everything about customer %s (%s), one scan [%s, %s):%n", scan.customerNumber(), scan.name(),
                scan.startRow(), scan.stopRow());
        int shown = 0;
        for (DemoSummary.ScannedRow row : scan.rows()) {
            if (shown++ == 12) {
                out.printf("    ... %d more rows (all of them with --json)%n", scan.rows().size() - 12);
                break;
            }
            out.printf("    %-18s %s%n      %s%n", row.recordType(), row.content(), row.rowKey());
        }
        Map<String, List<SampleRow>> byWay = new LinkedHashMap<>();
        sample().forEach(row -> byWay.computeIfAbsent(row.foundVia(), way -> new ArrayList<>()).add(row));
        byWay.forEach((way, rows) -> {
            out.printf("  rows read back, %s:%n", way);
            List<String[]> table = new ArrayList<>();
            List<String> header = new ArrayList<>(rows.get(0).key().keySet());
            header.add("message");
            table.add(header.toArray(String[]::new));
            for (SampleRow row : rows) {
                List<String> cells = new ArrayList<>(row.key().values());
                cells.add(row.message());
                table.add(cells.toArray(String[]::new));
            }
            RowTable.print(table, out, "    ");
        });
    }
}
