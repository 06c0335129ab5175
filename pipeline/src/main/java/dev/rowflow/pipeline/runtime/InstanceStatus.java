package dev.rowflow.pipeline.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rowflow.pipeline.topology.StatusEvents;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How one running instance is doing, as {@code /status} serves it and {@code rowflow status}
 * prints it: the instance's state and, per input, its state, lag, records in, rows out, dead
 * letters, last error and last commit. Counts are since this instance started.
 *
 * <p>The JSON ({@link #toJson()}, read back by {@link #fromJson}): {@code application}, {@code
 * version}, {@code state} (Kafka Streams' state), {@code ready}, {@code hbaseReachable}, {@code
 * lastCommit} (ISO-8601 or null), {@code lastFailure} ({@code {at, thread, message}} or null) and
 * {@code inputs}, each {@code {name, topics, state, partitions, lag, recordsIn, rowsOut,
 * deadLetters, lastError, lastCommit}} with {@code lastError} {@code {at, topic, partition, offset,
 * reason, message}} or null; {@code lag} is null while no partition of the input is here.
 */
public record InstanceStatus(String application, String version, String state, boolean ready, boolean hbaseReachable,
                             Instant lastCommit, StatusEvents.Failure lastFailure, List<Input> inputs) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One input's status.
     *
     * @param state      {@code RUNNING} (partitions of its topics here, being read), {@code IDLE} (running,
     *                   but its partitions are on other instances), {@code WAITING_FOR_REGISTRY} (a stream
     *                   thread waits for its unavailable Schema Registry), or the instance's state
     *                   while that is not {@code RUNNING} ({@code REBALANCING}, {@code ERROR}, ...)
     * @param partitions the partitions of its topics this instance reads
     * @param lag        records behind on those partitions (log end minus position), null if none is here
     * @param recordsIn  records read from its topics (shared with the inputs that read a topic too)
     * @param rowsOut    rows HBase acknowledged in its tables (data, index, summary, element rows)
     * @param lastCommit the oldest last commit of the stream threads holding its partitions: every
     *                   record of its partitions read before it is durable; null before the first
     */
    public record Input(String name, List<String> topics, String state, int partitions, Long lag, long recordsIn,
                        long rowsOut, long deadLetters, StatusEvents.DeadLetter lastError, Instant lastCommit) {
    }

    public String toJson() {
        ObjectNode root = JSON.createObjectNode().put("application", application).put("version", version)
                .put("state", state).put("ready", ready).put("hbaseReachable", hbaseReachable)
                .put("lastCommit", text(lastCommit));
        if (lastFailure == null) {
            root.putNull("lastFailure");
        } else {
            root.putObject("lastFailure").put("at", lastFailure.at().toString()).put("thread", lastFailure.thread())
                    .put("message", lastFailure.message());
        }
        for (Input input : inputs) {
            ObjectNode node = root.withArray("inputs").addObject().put("name", input.name());
            input.topics().forEach(node.putArray("topics")::add);
            node.put("state", input.state()).put("partitions", input.partitions()).put("lag", input.lag())
                    .put("recordsIn", input.recordsIn()).put("rowsOut", input.rowsOut())
                    .put("deadLetters", input.deadLetters());
            StatusEvents.DeadLetter error = input.lastError();
            if (error == null) {
                node.putNull("lastError");
            } else {
                node.putObject("lastError").put("at", error.at().toString()).put("topic", error.topic())
                        .put("partition", error.partition()).put("offset", error.offset()).put("reason", error.reason())
                        .put("message", error.message());
            }
            node.put("lastCommit", text(input.lastCommit()));
        }
        if (inputs.isEmpty()) {
            root.putArray("inputs");
        }
        return root.toPrettyString() + "\n";
    }

    /** The status {@link #toJson()} wrote. */
    public static InstanceStatus fromJson(String json) throws java.io.IOException {
        JsonNode root = JSON.readTree(json);
        List<Input> inputs = new ArrayList<>();
        for (JsonNode node : root.path("inputs")) {
            List<String> topics = new ArrayList<>();
            node.path("topics").forEach(t -> topics.add(t.asText()));
            JsonNode error = node.path("lastError");
            inputs.add(new Input(node.path("name").asText(), topics, node.path("state").asText(),
                    node.path("partitions").asInt(), node.path("lag").isNumber() ? node.path("lag").asLong() : null,
                    node.path("recordsIn").asLong(), node.path("rowsOut").asLong(), node.path("deadLetters").asLong(),
                    error.isObject() ? new StatusEvents.DeadLetter(Instant.parse(error.path("at").asText()),
                            error.path("topic").asText(), error.path("partition").asInt(), error.path("offset").asLong(),
                            error.path("reason").asText(), error.path("message").asText()) : null,
                    instant(node.path("lastCommit"))));
        }
        JsonNode failure = root.path("lastFailure");
        return new InstanceStatus(root.path("application").asText(), root.path("version").asText(),
                root.path("state").asText(), root.path("ready").asBoolean(), root.path("hbaseReachable").asBoolean(),
                instant(root.path("lastCommit")), failure.isObject() ? new StatusEvents.Failure(
                Instant.parse(failure.path("at").asText()), failure.path("thread").asText(),
                failure.path("message").asText()) : null, inputs);
    }

    private static String text(Instant at) {
        return at == null ? null : at.toString();
    }

    private static Instant instant(JsonNode node) {
        return node.isTextual() ? Instant.parse(node.asText()) : null;
    }
}
