package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.MappingException;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.order.OrderColumns;
import dev.rowflow.keying.order.OrderDesign;
import dev.rowflow.keying.order.OrderMapping;
import dev.rowflow.keying.order.OrderRows;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.topology.InputPlan;
import dev.rowflow.pipeline.topology.JoinTopology;
import dev.rowflow.sinks.hbase.TableDefinition;
import org.apache.hadoop.hbase.TableName;
import org.apache.kafka.common.config.ConfigException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The orders pipeline ({@code pipelines=orders}) as the two declared inputs it is: the
 * {@link OrderMapping} preset over {@code Customer} (input {@value #CUSTOMERS}) and over
 * {@code Order} (input {@value #ORDERS}), the orders joining the customers by customer number
 * (Kafka Streams' foreign-key join, see {@code JoinTopology}), with the design, layout, CUSTOMER++
 * and tables of the {@code orders.*}, {@code keying.layout.order} and {@code table.*} keys.
 *
 * <p>Each order is written with its customer's fields as the customer is now: written before its
 * customer arrives, it gets them when the customer comes; a customer changed rewrites its orders.
 * A customer's tombstone is set aside (rowflow keeps what a customer ordered), and so is a
 * customer under another record key than its number (compaction would keep both), an order's
 * tombstone, and an order of more than {@code orders.max.line.items} line items.
 */
public final class OrderIngest {
    /** The inputs' names: {@code orders} is also the pipeline's, as {@code pipelines} lists it. */
    public static final String CUSTOMERS = "customers";
    public static final String ORDERS = RowflowConfig.ORDERS_PIPELINE;

    private static final Map<TableRole, String> TABLE_KEYS = Map.of(
            TableRole.CUSTOMER, RowflowConfig.CUSTOMER_TABLE_CONFIG, TableRole.ORDER, RowflowConfig.ORDER_TABLE_CONFIG,
            TableRole.SHIPPING_LOCATION, RowflowConfig.SHIPPING_LOCATION_TABLE_CONFIG,
            TableRole.LINE_ITEM, RowflowConfig.LINE_ITEM_TABLE_CONFIG,
            TableRole.ORDER_INDEX, RowflowConfig.ORDER_INDEX_TABLE_CONFIG);

    private OrderIngest() {
    }

    /**
     * The customers and orders inputs as configured, the orders linked to the customers they join.
     *
     * @throws ConfigException naming the key at fault
     */
    public static List<DeclaredInput> of(RowflowConfig config, UidResolver uids) {
        OrderRows rows = rows(config, uids);
        RowKeyLayout layout = RowKeyLayout.parse(config.getString(RowflowConfig.ORDER_LAYOUT_CONFIG), uids);
        EventMapping customers = compile(config, OrderMapping.customers(layout, rows.customerPlusPlus()), uids,
                OrderMapping.customerFormat()::cannotYield);
        EventMapping orders = compile(config, OrderMapping.orders(rows.design(), layout, rows.customerPlusPlus()),
                uids, OrderMapping::cannotYieldJoined);
        // The tables record the order layouts' own names for their parts (recordType, rowType...), as
        // rowflow keys and the order queries decode them; the mappings make the same bytes.
        Map<TableRole, RowKeyLayout> layouts = rows.tableLayouts();
        List<IngestTable> customerTables = new ArrayList<>();
        List<IngestTable> orderTables = new ArrayList<>();
        layouts.forEach((role, tableLayout) -> (role.equals(TableRole.CUSTOMER) ? customerTables : orderTables)
                .add(table(config, role, tableLayout)));
        int maxLineItems = config.getInt(RowflowConfig.MAX_LINE_ITEMS_CONFIG);
        DeclaredInput customerInput = new DeclaredInput(CUSTOMERS, new Source(
                config.getString(RowflowConfig.CUSTOMERS_TOPIC_CONFIG), RowflowConfig.CUSTOMERS_TOPIC_CONFIG,
                config.getString(RowflowConfig.CUSTOMERS_DEAD_LETTER_TOPIC_CONFIG),
                "no such topic; create it (compacted, keyed by customer number) before starting the orders pipeline"),
                OrderMapping.customerFormat(), customers, customerTables, OrderRows::checkLayout, null, List.of(
                // Compaction keeps the last record per key: a customer under another key would survive beside its
                // update, and which of the two the join ends with would depend on the partitions' order.
                new InputPlan.Refusal(Expression.parseCondition("text($key) != customerNumber"), "key",
                        Expression.parse("text($key)"), "must be the customer number: the customers topic is "
                        + "compacted and keyed by it")));
        DeclaredInput orderInput = new DeclaredInput(ORDERS, new Source(
                config.getString(RowflowConfig.ORDERS_TOPIC_CONFIG), RowflowConfig.ORDERS_TOPIC_CONFIG,
                config.getString(RowflowConfig.ORDERS_DEAD_LETTER_TOPIC_CONFIG), null),
                OrderMapping.orderFormat(), orders, orderTables, OrderRows::checkLayout,
                new DeclaredInput.Join(CUSTOMERS, FieldPath.parse("customerNumber"), FieldPath.parse("customerNumber"),
                        OrderMapping.CUSTOMER), List.of(
                new InputPlan.Refusal(Expression.parseCondition("size(shippingLocations[*].lineItems[*]) > "
                        + maxLineItems), "lineItems", Expression.parse("concat(text(size(shippingLocations[*]"
                        + ".lineItems[*])), ' line items in order ', orderNumber)"),
                        "more than " + RowflowConfig.MAX_LINE_ITEMS_CONFIG + "=" + maxLineItems)));
        orderInput.joinWith(customerInput);
        return List.of(customerInput, orderInput);
    }

    /**
     * The internal topics the orders pipeline reads besides its two topics, in the order records
     * flow through them: the customers by number, the orders by key, the join's subscriptions.
     */
    public static List<String> internalTopics(String applicationId) {
        List<String> topics = new ArrayList<>();
        topics.add(JoinTopology.rowsTopic(applicationId, CUSTOMERS));
        topics.addAll(JoinTopology.internalTopics(applicationId, ORDERS));
        return topics;
    }

    private static EventMapping compile(RowflowConfig config, MappingSpec spec, UidResolver uids,
                                        java.util.function.Function<FieldPath, java.util.Optional<String>> yield) {
        try {
            return EventMapping.compile(spec.withTimestamps(config.timestampPolicy()), uids, yield);
        } catch (MappingException e) {
            // The preset's paths and columns are fixed: only the order layout can be at fault.
            throw new ConfigException(RowflowConfig.ORDER_LAYOUT_CONFIG,
                    config.getString(RowflowConfig.ORDER_LAYOUT_CONFIG), e.getMessage());
        }
    }

    /**
     * The customer and order rows' keys of the configured design and layout, what the order
     * queries read with.
     *
     * @param uids the UID store for uid parts, or null where none is connected
     * @throws ConfigException naming the key of a layout or design that is refused
     */
    public static OrderRows rows(RowflowConfig config, UidResolver uids) {
        try {
            return new OrderRows(OrderDesign.of(config.getString(RowflowConfig.ORDER_DESIGN_CONFIG)),
                    RowKeyLayout.parse(config.getString(RowflowConfig.ORDER_LAYOUT_CONFIG), uids),
                    config.getBoolean(RowflowConfig.CUSTOMER_PLUS_PLUS_CONFIG));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(RowflowConfig.ORDER_LAYOUT_CONFIG,
                    config.getString(RowflowConfig.ORDER_LAYOUT_CONFIG), e.getMessage());
        }
    }

    private static IngestTable table(RowflowConfig config, TableRole role, RowKeyLayout layout) {
        String key = TABLE_KEYS.get(role);
        return new IngestTable(role, new TableDefinition(TableName.valueOf(config.getString(key)),
                role.equals(TableRole.ORDER_INDEX) ? OrderColumns.INDEX_FAMILY : OrderColumns.FAMILY,
                config.familySettings(key), layout), key, RowflowConfig.ORDER_LAYOUT_CONFIG);
    }
}
