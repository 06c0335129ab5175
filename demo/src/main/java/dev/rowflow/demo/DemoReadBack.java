package dev.rowflow.demo;

import dev.rowflow.embedded.load.OrderGenerator;
import dev.rowflow.events.Customer;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.KeyQuery;
import dev.rowflow.keying.layout.KeyRange;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogColumns;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.log.LogSummary;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.cli.RowTable;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.runtime.KafkaTopics;
import dev.rowflow.sinks.hbase.CounterCells;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.admin.Admin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The demo's summary read back from the tables with plain hbase-client after the pipeline has
 * stopped: rows counted per table and per salt bucket, a few rows decoded, one customer's
 * everything-scan.
 */
final class DemoReadBack {
    private DemoReadBack() {
    }

    /** Counts and samples the rows with plain hbase-client, after the pipeline has stopped. */
    static DemoSummary of(DemoCommand.Run run, RowflowConfig config, Admin admin, int customers, String orderDesign)
            throws Exception {
        LogEventRows layouts = dev.rowflow.pipeline.ingest.LogIngest.rows(config, null);
        int buckets = layouts.dataLayout().salt().buckets().orElse(0);
        try (Connection connection = dev.rowflow.pipeline.runtime.HBaseConnections.connect(config)) {
            long[] perBucket = new long[buckets];
            long dataRows = 0;
            try (Table data = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG)));
                 ResultScanner rows = data.getScanner(countingScan())) {
                for (Result row : rows) {
                    if (buckets > 0) {
                        perBucket[layouts.dataLayout().salt().bucketOf(row.getRow())]++;
                    }
                    dataRows++;
                }
            }
            long indexRows = 0;
            try (Table index = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG)));
                 ResultScanner rows = index.getScanner(countingScan())) {
                for (Result ignored : rows) {
                    indexRows++;
                }
            }
            long deadLetters = KafkaTopics.endOffsets(admin, config.getString(RowflowConfig.LOGS_DEAD_LETTER_TOPIC_CONFIG))
                    .values().stream().mapToLong(Long::longValue).sum();
            long largest = Arrays.stream(perBucket).max().orElse(0);
            double share = dataRows == 0 || buckets == 0 ? 0 : round(largest / ((double) dataRows / buckets));
            long summaryRows = 0;
            long summaryCount = 0;
            if (config.getBoolean(RowflowConfig.LOG_SUMMARY_ENABLED_CONFIG)) {
                try (Table summary = connection.getTable(TableName.valueOf(
                        config.getString(RowflowConfig.LOG_SUMMARY_TABLE_CONFIG)));
                     ResultScanner rows = summary.getScanner(new Scan().addFamily(LogSummary.FAMILY))) {
                    for (Result row : rows) {
                        summaryRows++;
                        summaryCount += CounterCells.total(row, LogSummary.FAMILY, LogSummary.COUNT);
                    }
                }
            }
            long orderIndexRows = 0;
            try (Table index = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.ORDER_INDEX_TABLE_CONFIG)));
                 ResultScanner rows = index.getScanner(countingScan())) {
                for (Result ignored : rows) {
                    orderIndexRows++;
                }
            }
            return new DemoSummary(run.events(), dataRows, indexRows, deadLetters, round(run.seconds()),
                    round(run.events() / run.seconds()), round((dataRows + indexRows) / run.seconds()),
                    layouts.dataLayout().spec(), layouts.indexLayout().spec(),
                    Arrays.stream(perBucket).boxed().toList(), share, sample(connection, config, layouts),
                    summaryRows, summaryCount, customers, run.orders(), orderIndexRows,
                    orderDesign + (config.getBoolean(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG) ? ", CUSTOMER++" : ""),
                    customerScan(connection, config, OrderGenerator.customer(run.busiestCustomer())));
        }
    }

    /**
     * Three rows of the data table, then for the first one's host and event type the newest rows
     * through the index, when the index layout leads with hostname and event type -- the scan the
     * host-led key was designed for.
     */
    private static List<DemoSummary.SampleRow> sample(Connection connection, RowflowConfig config,
                                                      LogEventRows layouts) throws Exception {
        List<DemoSummary.SampleRow> sample = new ArrayList<>();
        try (Table data = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_DATA_TABLE_CONFIG)));
             Table index = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.LOG_INDEX_TABLE_CONFIG)))) {
            try (ResultScanner rows = data.getScanner(new Scan().setLimit(3))) {
                for (Result row : rows) {
                    sample.add(sampleRow(layouts.dataLayout(), row, "scan of the data table"));
                }
            }
            List<String> indexFields = layouts.indexLayout().parts().stream().map(KeyPart::field).toList();
            if (sample.isEmpty() || indexFields.size() < 2
                    || !indexFields.subList(0, 2).equals(List.of("hostname", "eventType"))) {
                return sample;
            }
            DemoSummary.SampleRow first = sample.get(0);
            for (KeyRange range : layouts.indexLayout().scanRanges(KeyQuery.prefix(first.hostname(), first.eventType()))) {
                try (ResultScanner entries = index.getScanner(new Scan().withStartRow(range.start())
                        .withStopRow(range.stop()).setLimit(2))) {
                    for (Result entry : entries) {
                        byte[] dataRowKey = entry.getValue(LogColumns.INDEX_FAMILY, LogColumns.DATA_ROW_KEY);
                        sample.add(sampleRow(layouts.dataLayout(), data.get(new Get(dataRowKey)), "index scan of "
                                + first.hostname() + " / " + first.eventType() + ", newest first"));
                    }
                }
            }
        }
        return sample;
    }

    /**
     * Everything about one customer in one scan of the order table (CUSTOMER++, seed 002
     * 1.11.3.1): start row {@code [customer]}, stop row {@code [customer]+1}.
     */
    private static DemoSummary.CustomerScan customerScan(Connection connection, RowflowConfig config, Customer customer)
            throws Exception {
        OrderRows rows = dev.rowflow.pipeline.ingest.OrderIngest.rows(config, null);
        byte[] start = rows.customerPrefix(customer.getCustomerNumber());
        byte[] stop = RowKeyLayout.prefixEnd(start);
        List<DemoSummary.ScannedRow> scanned = new ArrayList<>();
        if (rows.customerPlusPlus()) {
            try (Table table = connection.getTable(TableName.valueOf(config.getString(RowflowConfig.ORDER_TABLE_CONFIG)));
                 ResultScanner results = table.getScanner(new Scan().withStartRow(start).withStopRow(stop))) {
                for (Result row : results) {
                    scanned.add(scannedRow(row));
                }
            }
        }
        return new DemoSummary.CustomerScan(customer.getCustomerNumber(), customer.getName(),
                KeyBytes.toStringBinary(start), KeyBytes.toStringBinary(stop), scanned);
    }

    private static DemoSummary.ScannedRow scannedRow(Result row) {
        String key = KeyBytes.toStringBinary(row.getRow());
        if (row.getValue(OrderColumns.FAMILY, OrderColumns.ORDER_NUMBER) != null) {
            return new DemoSummary.ScannedRow(key, "order", text(row, OrderColumns.ORDER_NUMBER) + " at "
                    + Instant.ofEpochMilli(Bytes.toLong(row.getValue(OrderColumns.FAMILY, OrderColumns.ORDER_TIME)))
                    + " for " + text(row, OrderColumns.CUSTOMER_NAME) + ", " + Bytes.toInt(row.getValue(
                    OrderColumns.FAMILY, OrderColumns.LINE_COUNT)) + " line items");
        }
        if (row.getValue(OrderColumns.FAMILY, OrderColumns.ITEM_NUMBER) != null) {
            String shipTo = text(row, OrderColumns.SHIP_TO_CITY);
            return new DemoSummary.ScannedRow(key, "line item", Bytes.toInt(row.getValue(OrderColumns.FAMILY,
                    OrderColumns.QUANTITY)) + " x " + text(row, OrderColumns.ITEM_NUMBER)
                    + (shipTo == null ? "" : " to " + shipTo));
        }
        if (row.getValue(OrderColumns.FAMILY, OrderColumns.LINE1) != null) {
            return new DemoSummary.ScannedRow(key, "shipping location", text(row, OrderColumns.LINE1) + ", "
                    + text(row, OrderColumns.CITY) + " " + text(row, OrderColumns.STATE));
        }
        return new DemoSummary.ScannedRow(key, "customer", text(row, OrderColumns.CUSTOMER_NAME) + ", "
                + text(row, OrderColumns.CUSTOMER_CITY) + " " + text(row, OrderColumns.CUSTOMER_STATE));
    }

    private static String text(Result row, byte[] qualifier) {
        byte[] value = row.getValue(OrderColumns.FAMILY, qualifier);
        return value == null ? null : Bytes.toString(value);
    }

    private static DemoSummary.SampleRow sampleRow(RowKeyLayout layout, Result row, String foundVia) {
        return new DemoSummary.SampleRow(KeyBytes.toStringBinary(row.getRow()), RowTable.keyFields(layout, row.getRow()),
                Instant.ofEpochMilli(row.rawCells()[0].getTimestamp()).toString(),
                Bytes.toString(row.getValue(LogColumns.DATA_FAMILY, LogColumns.HOSTNAME)),
                Bytes.toString(row.getValue(LogColumns.DATA_FAMILY, LogColumns.EVENT_TYPE)),
                Bytes.toString(row.getValue(LogColumns.DATA_FAMILY, LogColumns.MESSAGE)), foundVia);
    }

    private static Scan countingScan() {
        return new Scan().setFilter(new FirstKeyOnlyFilter()).setCaching(5_000);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
