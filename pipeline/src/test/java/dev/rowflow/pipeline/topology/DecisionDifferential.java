package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.Counter;
import dev.rowflow.keying.KeyBytes;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.pipeline.config.RowflowConfig;
import dev.rowflow.pipeline.ingest.MappingCheck;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.runtime.HBaseConnections;
import dev.rowflow.sinks.RowSink;
import dev.rowflow.sinks.hbase.RowLimits;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code mapping check} against the pipeline, record by record: each record goes through the
 * production topology (on {@link TopologyTestDriver}, into a sink that records every write, delete
 * and count, refusing rows by the store's limits as HBase's sink does) and through a check of the
 * same configuration; {@link #send} returns what each did, as comparable text, so a test asserts
 * they are equal. What the pipeline did is read from what reached the sink and the dead-letter
 * topic -- not from the decision both are meant to share.
 */
final class DecisionDifferential implements AutoCloseable {
    private static final String MESSAGE_HEADER = "__streams.errors.message";

    private final RecordingSink sink;
    private final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> input;
    private final TestOutputTopic<byte[], byte[]> deadLetters;
    private final String topic;
    private final RowLimits limits;
    private final PipelinePlan checkPlan;
    /** Made at the first record: a topic.pattern's input of the topic takes its key. */
    private MappingCheck check;
    private long offset;

    /**
     * What one side made of one record: its effects in order, and its dead letter's message and
     * kind of refusal, or null.
     */
    record Outcome(List<String> effects, List<String> deadLetters, List<String> refusals) {

        /** The first dead letter's message, or null. */
        String deadLetter() {
            return deadLetters.isEmpty() ? null : deadLetters.get(0);
        }

        /** The first dead letter's kind of refusal, or null. */
        String refusal() {
            return refusals.isEmpty() ? null : refusals.get(0);
        }
    }

    DecisionDifferential(RowflowConfig config, String topic, String deadLetterTopic) {
        RowLimits limits = RowLimits.of(HBaseConnections.configuration(config));
        this.sink = new RecordingSink(limits);
        this.driver = ProductionTopology.driver(config, sink, Map.of());
        this.input = driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
        this.deadLetters = driver.createOutputTopic(deadLetterTopic, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.checkPlan = PipelinePlan.build(config, null);
        this.topic = topic;
        this.limits = limits;
    }

    /**
     * The pipeline's outcome and check's, of one Kafka record (a null value is a tombstone): of
     * every record it holds, where it holds several.
     */
    Outcome[] send(byte[] key, byte[] value, long timestamp) {
        RecordHeaders headers = new RecordHeaders();
        input.pipeInput(new TestRecord<>(key, value, headers, Instant.ofEpochMilli(timestamp)));
        List<String> written = sink.take();
        List<String> messages = new java.util.ArrayList<>();
        List<String> refusals = new java.util.ArrayList<>();
        while (!deadLetters.isEmpty()) {
            TestRecord<byte[], byte[]> dead = deadLetters.readRecord();
            Header message = dead.headers().lastHeader(MESSAGE_HEADER);
            messages.add(message == null ? "(no message)" : new String(message.value(), StandardCharsets.UTF_8));
            Header kind = dead.headers().lastHeader(DeadLetterTopics.REFUSAL_HEADER);
            refusals.add(kind == null ? null : new String(kind.value(), StandardCharsets.UTF_8));
        }
        Outcome pipeline = new Outcome(written, messages, refusals);
        if (check == null) {
            check = new MappingCheck(topic, MappingCheck.inputsOf(checkPlan, topic, key), limits);
        }
        List<String> effects = new java.util.ArrayList<>();
        List<String> checkMessages = new java.util.ArrayList<>();
        List<String> checkRefusals = new java.util.ArrayList<>();
        for (MappingCheck.Verdict verdict : check.add(new MappingCheck.Sampled(0, offset++, timestamp, key, value,
                headers))) {
            effects.addAll(effects(verdict));
            if (verdict.deadLetter() != null) {
                checkMessages.add(verdict.deadLetter());
                checkRefusals.add(verdict.refusal() == null ? null : verdict.refusal().name());
            }
        }
        return new Outcome[] {pipeline, new Outcome(effects, checkMessages, checkRefusals)};
    }

    /** The check's report so far. */
    MappingCheck.Report report() {
        return check.report();
    }

    /** The effects a verdict of check says the pipeline has, in the order the pipeline's writer has them. */
    private static List<String> effects(MappingCheck.Verdict verdict) {
        List<String> effects = new ArrayList<>();
        if (verdict.deadLetter() != null) {
            return effects;
        }
        List<Decision> decisions = verdict.judgement().decisions();
        for (int i = 0; i < decisions.size(); i++) {
            Decision decision = decisions.get(i);
            if (decision instanceof Decision.Delete delete) {
                effects.add(RecordingSink.deleted(null, delete.dataKey()));
            } else if (decision instanceof Decision.Write write) {
                if (write.movedFrom() != null) {
                    effects.add(RecordingSink.deleted(null, write.movedFrom()));
                }
                String verb = write.change() == null ? "write " : "replace ";
                write.mapped().rows().forEach(row -> effects.add(verb + row));
                write.mapped().counter().ifPresent(counter -> effects.add(RecordingSink.counted(counter)));
            }
        }
        return effects;
    }

    @Override
    public void close() {
        driver.close();
        checkPlan.close();
    }

    /** A sink that records what it is asked to do, and refuses rows as the store's limits do. */
    static final class RecordingSink implements RowSink {
        private final RowLimits limits;
        private final List<String> effects = new ArrayList<>();

        RecordingSink(RowLimits limits) {
            this.limits = limits;
        }

        static String deleted(TableRole table, byte[] key) {
            return "delete " + KeyBytes.toStringBinary(key); // the data table: one per input
        }

        static String counted(Counter counter) {
            return "count " + counter;
        }

        List<String> take() {
            List<String> taken = List.copyOf(effects);
            effects.clear();
            return taken;
        }

        @Override
        public void check(Row row) {
            limits.check(row);
        }

        @Override
        public void write(Row row) {
            effects.add("write " + row);
        }

        @Override
        public void count(Counter counter, String source, long position) {
            effects.add(counted(counter));
        }

        @Override
        public void replace(TableRole table, List<Row> rows, EventMapping mapping, Prior prior) {
            rows.forEach(row -> effects.add("replace " + row));
        }

        @Override
        public void delete(TableRole table, byte[] key, EventMapping mapping, Prior prior, DeleteOutcome outcome) {
            effects.add(deleted(table, key));
            outcome.applied(true);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
