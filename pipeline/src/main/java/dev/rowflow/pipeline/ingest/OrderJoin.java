package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.TimestampPolicy;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderDesign;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.topology.OrderTopology;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.kafka.streams.StreamsBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Customers and orders joined ({@code pipelines=orders}): each order denormalized with its
 * customer's fields and written in the configured order design (seed 002, 1.11.3), see
 * {@link OrderTopology}.
 */
public final class OrderJoin implements Ingest {
    /** The name of this ingest, as {@code pipelines} lists it. */
    public static final String NAME = RowflowConfig.ORDERS_PIPELINE;

    private final OrderRows rows;
    private final List<Source> sources;
    private final List<IngestTable> tables;
    private final int maxLineItems;
    private final TimestampPolicy timestamps;

    private OrderJoin(OrderRows rows, List<Source> sources, List<IngestTable> tables, int maxLineItems,
                      TimestampPolicy timestamps) {
        this.rows = rows;
        this.sources = List.copyOf(sources);
        this.tables = List.copyOf(tables);
        this.maxLineItems = maxLineItems;
        this.timestamps = timestamps;
    }

    /** The orders join as configured, whether or not {@code pipelines} runs it. */
    public static OrderJoin of(RowflowConfig config, UidResolver uids) {
        OrderRows rows = rows(config, uids);
        List<IngestTable> tables = new ArrayList<>();
        for (Map.Entry<TableRole, RowKeyLayout> table : rows.tableLayouts().entrySet()) {
            String key = tableKey(table.getKey());
            tables.add(new IngestTable(table.getKey(), new TableDefinition(TableName.valueOf(config.getString(key)),
                    table.getKey() == TableRole.ORDER_INDEX ? OrderColumns.INDEX_FAMILY : OrderColumns.FAMILY,
                    config.familySettings(key), table.getValue()), key, RowflowConfig.ORDER_LAYOUT_CONFIG));
        }
        String customers = config.getString(RowflowConfig.CUSTOMERS_TOPIC_CONFIG);
        List<Source> sources = List.of(
                new Source(customers, RowflowConfig.CUSTOMERS_TOPIC_CONFIG,
                        config.getString(RowflowConfig.CUSTOMERS_DEAD_LETTER_TOPIC_CONFIG),
                        "no such topic; create it (compacted, keyed by customer number) before starting the orders "
                                + "pipeline"),
                new Source(config.getString(RowflowConfig.ORDERS_TOPIC_CONFIG), RowflowConfig.ORDERS_TOPIC_CONFIG,
                        config.getString(RowflowConfig.ORDERS_DEAD_LETTER_TOPIC_CONFIG), null));
        return new OrderJoin(rows, sources, tables, config.getInt(RowflowConfig.MAX_LINE_ITEMS_CONFIG),
                config.timestampPolicy());
    }

    /**
     * The customer and order rows of the configured design and layout.
     *
     * @param uids the UID store for uid parts, or null where none is connected
     */
    public static OrderRows rows(RowflowConfig config, UidResolver uids) {
        return new OrderRows(OrderDesign.of(config.getString(RowflowConfig.ORDER_DESIGN_CONFIG)),
                RowKeyLayout.parse(config.getString(RowflowConfig.ORDER_LAYOUT_CONFIG), uids),
                config.getBoolean(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG));
    }

    private static final Map<TableRole, String> TABLE_KEYS = Map.of(
            TableRole.CUSTOMER, RowflowConfig.CUSTOMER_TABLE_CONFIG, TableRole.ORDER, RowflowConfig.ORDER_TABLE_CONFIG,
            TableRole.SHIPPING_LOCATION, RowflowConfig.SHIPPING_LOCATION_TABLE_CONFIG,
            TableRole.LINE_ITEM, RowflowConfig.LINE_ITEM_TABLE_CONFIG,
            TableRole.ORDER_INDEX, RowflowConfig.ORDER_INDEX_TABLE_CONFIG);

    private static String tableKey(TableRole role) {
        String key = TABLE_KEYS.get(role);
        if (key == null) {
            throw new IllegalArgumentException("no table key for role " + role);
        }
        return key;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Source> sources() {
        return sources;
    }

    /** Orders fail in the order writer after the repartition: their dead letters come from there. */
    @Override
    public Map<String, String> internalDeadLetterTopics(String applicationId) {
        return Map.of(OrderTopology.repartitionTopic(applicationId), sources.get(1).deadLetterTopic());
    }

    @Override
    public List<IngestTable> tables() {
        return tables;
    }

    /** The rows it makes, what the order queries read with. */
    public OrderRows rows() {
        return rows;
    }

    /** Its table of {@code role}. */
    public java.util.Optional<TableDefinition> table(TableRole role) {
        return tables.stream().filter(table -> table.role().equals(role)).map(IngestTable::definition).findFirst();
    }

    /** The seed's order key: {@code [customer][order]}, unsalted, of text parts. */
    @Override
    public void checkKeyLayout(RowKeyLayout layout) {
        OrderRows.checkLayout(layout);
    }

    /** Orders are repartitioned into as many partitions as the customers topic has: the task writing an order holds its customer. */
    @Override
    public void addTo(StreamsBuilder builder, Wiring wiring) {
        String customers = sources.get(0).topic();
        OrderTopology.addTo(builder, customers, sources.get(1).topic(), wiring.partitionsOf(customers), maxLineItems,
                rows, timestamps, wiring.sinks(), wiring.flushBeforeCommit());
    }
}
