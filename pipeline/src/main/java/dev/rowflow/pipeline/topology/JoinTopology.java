package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordTree;
import dev.rowflow.pipeline.serde.TreeSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.TableJoined;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A declared input that joins another's rows by a foreign key ({@code join.input}), as Kafka
 * Streams' table-table foreign-key join does: orders joining customers by {@code customer_id}.
 * Each side is the table its records make (of change events, a row per primary key as of its last
 * change; of events, each event under its data row key, and the joined input's latest event per
 * joined field); every change of either side makes the joined row of each order it touches again,
 * which {@link JoinedRecordWriter} writes.
 *
 * <pre>
 * source(customers) --> customers-writer                                   (its own rows, as without a join)
 *                   \-> customers-by-&lt;field&gt; --> repartition --> table customers-rows (field -> row)
 * source(orders) --> orders-changes --> table orders-changes (record key -> after image, source, op)
 *           events: orders-keyer --> repartition orders-by-key --> table orders-changes (data key -> event)
 *                --> left foreign-key join orders-join (on -> field) --> orders-writer
 *                                                 store orders-join-keys (record key -> data key written)
 * </pre>
 *
 * <p>Its state (both tables, the join's subscriptions, the keys written) must come back after a
 * crash as it was at the last commit, when the sinks were flushed: a pipeline with a join runs
 * {@code exactly_once_v2} ({@code PipelinePlan#hasJoins}).
 *
 * <p>The tables keep no record cache: with one, a row created and deleted between two commits
 * reaches the join as no change at all (nothing before, nothing after), while a subscription
 * read in between has already seen it -- and the orders that did keep its fields. Every change
 * goes through the join as it comes.
 *
 * <p>The joining input's table is keyed by the record key, which a CDC connector makes the row's
 * primary key: a delete (and its tombstone) removes the row from the table, a primary-key change
 * is the delete of one key and the create of another. A left join: an order whose customer does
 * not exist (yet, or any more) is written without the customer's fields, and gets them when the
 * customer comes.
 */
public final class JoinTopology {
    /** Fields of a joining input's table values. */
    static final String AFTER = "after";
    static final String SOURCE = "source";
    static final String OP = "op";
    static final String JOINED = "joined";
    /** Of an input of events: the record's value as its format keeps it (base64), and its timestamp. */
    static final String VALUE = "value";
    static final String TIMESTAMP = "timestamp";

    private JoinTopology() {
    }

    /**
     * The present rows of a joined input by the text of {@code field} (its primary key), made
     * from the change events of {@code stream}: a create, snapshot read or update puts the after
     * image, a delete removes the row. Of an input of events, each record is its row as of then
     * (the latest record of a field's value wins, as on a compacted topic). Tombstones and
     * records without a key value pass by.
     */
    public static KTable<String, Map<String, Object>> rowsBy(KStream<byte[], ReadRecord> stream, String input,
                                                             FieldPath field) {
        return stream.flatMap((key, read) -> {
                    if (read == null) {
                        return List.<KeyValue<String, Map<String, Object>>>of();
                    }
                    if (read.change() == null) {
                        Object id = field.resolve(read.tree());
                        return id == null || id == RecordTree.NULL || !RecordTree.isScalar(id)
                                ? List.<KeyValue<String, Map<String, Object>>>of()
                                : List.of(KeyValue.pair(RecordTree.scalarText(id), read.tree()));
                    }
                    Change change = read.change();
                    boolean delete = change.op() == Change.Op.DELETE;
                    Object id = field.resolve(delete ? change.before() : change.after());
                    if (id == null || id == RecordTree.NULL || !RecordTree.isScalar(id)) {
                        return List.<KeyValue<String, Map<String, Object>>>of();
                    }
                    return List.of(KeyValue.pair(RecordTree.scalarText(id), delete ? null : change.after()));
                }, Named.as(input + "-by-" + field.text()))
                .toTable(Named.as(input + "-rows-table"),
                        Materialized.<String, Map<String, Object>, KeyValueStore<Bytes, byte[]>>as(input + "-rows")
                                .withKeySerde(Serdes.String()).withValueSerde(new TreeSerde()).withCachingDisabled());
    }

    /**
     * Adds the joining input's table, the join and its writer.
     *
     * @param on the path of the foreign key in the input's row
     * @param as the name the joined row's fields appear under
     */
    public static void addTo(StreamsBuilder builder, KStream<byte[], ReadRecord> stream,
                             KTable<String, Map<String, Object>> joined, FieldPath on, String as,
                             InputPlan plan, SinkFactory sinks, FlushBeforeCommit flushBeforeCommit) {
        String input = plan.input();
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(keysStore(input)),
                Serdes.Bytes(), Serdes.ByteArray()));
        KTable<byte[], Map<String, Object>> changes = plan.deletes().changes() ? changes(stream, input)
                : events(stream, plan);
        changes.leftJoin(joined, change -> foreignKey(change, on), (change, row) -> {
                    if (row == null) {
                        return change;
                    }
                    Map<String, Object> both = new LinkedHashMap<>(change);
                    both.put(JOINED, row);
                    return both;
                }, TableJoined.as(input + "-join"),
                        Materialized.<byte[], Map<String, Object>, KeyValueStore<Bytes, byte[]>>as(input + "-joined")
                                .withKeySerde(Serdes.ByteArray()).withValueSerde(new TreeSerde())
                                .withCachingDisabled())
                .toStream(Named.as(input + "-joined"))
                .process(() -> new JoinedRecordWriter(plan, as, sinks, flushBeforeCommit),
                        Named.as(InputTopology.writerName(input)), keysStore(input));
    }

    /** The rows of an input of change events, keyed by the record key (the row's primary key). */
    private static KTable<byte[], Map<String, Object>> changes(KStream<byte[], ReadRecord> stream, String input) {
        return stream.mapValues((key, read) -> {
                    if (key == null) {
                        throw new InvalidEventException(Refusal.MISSING,
                                "key", null, "is missing: a change event of input " + input
                                + ", which joins another, must be keyed by its row's primary key, as CDC "
                                + "connectors key them");
                    }
                    if (read == null || read.change().op() == Change.Op.DELETE) {
                        return null;
                    }
                    Map<String, Object> change = new LinkedHashMap<>();
                    change.put(AFTER, read.change().after());
                    change.put(SOURCE, read.change().source());
                    change.put(OP, read.change().op().code());
                    return change;
                }, Named.as(input + "-changes"))
                .toTable(Named.as(input + "-changes-table"), table(input + "-changes"));
    }

    /**
     * The records of an input of events, keyed by their data row key: each record is checked by
     * its mapping first (without the joined fields), so that one that cannot make rows is set
     * aside as it was read, then repartitioned by that key.
     */
    private static KTable<byte[], Map<String, Object>> events(KStream<byte[], ReadRecord> stream,
                                                              InputPlan plan) {
        String input = plan.input();
        return stream.process(() -> new EventKeyer(plan), Named.as(input + "-keyer"))
                .repartition(Repartitioned.<byte[], Map<String, Object>>with(Serdes.ByteArray(), new TreeSerde())
                        .withName(input + "-by-key"))
                .toTable(Named.as(input + "-changes-table"), table(input + "-changes"));
    }

    private static Materialized<byte[], Map<String, Object>, KeyValueStore<Bytes, byte[]>> table(String store) {
        return Materialized.<byte[], Map<String, Object>, KeyValueStore<Bytes, byte[]>>as(store)
                .withKeySerde(Serdes.ByteArray()).withValueSerde(new TreeSerde()).withCachingDisabled();
    }

    /**
     * The internal topics records of {@code input} pass through before its writer, whose failures
     * are set aside on the input's dead-letter topic: the join's subscription topics.
     */
    public static List<String> internalTopics(String applicationId, String input) {
        return List.of(applicationId + "-" + input + "-by-key-repartition",
                applicationId + "-" + input + "-join-subscription-registration-topic",
                applicationId + "-" + input + "-join-subscription-response-topic");
    }

    /** The internal topic a joined input's rows are repartitioned through, by the field the join compares. */
    public static String rowsTopic(String applicationId, String input) {
        return applicationId + "-" + input + "-rows-table-repartition";
    }

    static String keysStore(String input) {
        return input + "-join-keys";
    }

    private static String foreignKey(Map<String, Object> change, FieldPath on) {
        Object after = change.get(AFTER);
        Object key = after instanceof Map<?, ?> row ? on.resolve(cast(row)) : null;
        return key == null || key == RecordTree.NULL || !RecordTree.isScalar(key) ? null : RecordTree.scalarText(key);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
