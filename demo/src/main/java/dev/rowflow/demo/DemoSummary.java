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
        List<SampleRow> sample) {

    /** One data row read back, its key decoded, and how it was found. */
    public record SampleRow(String rowKey, String decodedKey, String time, String hostname, String eventType,
                            String message, String foundVia) {
    }
}
