package dev.rowflow.demo;

import java.util.List;

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

    /** One data row read back, its key decoded, and how it was found. */
    public record SampleRow(String rowKey, String decodedKey, String time, String hostname, String eventType,
                            String message, String foundVia) {
    }
}
