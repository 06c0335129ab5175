package dev.rowflow.pipeline.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.format.RecordFormat;
import dev.rowflow.keying.mapping.FieldPath;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * OpenTelemetry Collector logs as its Kafka exporter writes them: each Kafka record an OTLP export
 * request ({@code ExportLogsServiceRequest}) holding many log records, each of which becomes a
 * record of its own ({@link OtlpLogRecords}: its resource's and scope's fields with it).
 * {@code otlp-proto} reads the protobuf encoding (the exporter's {@code otlp_proto}, its default),
 * {@code otlp-json} the OTLP/JSON encoding ({@code otlp_json}): field names in lowerCamelCase or as
 * in the .proto, 64-bit numbers as strings or numbers, enums as numbers, trace and span ids in hex
 * -- what OTLP/JSON's specification asks a receiver to take.
 *
 * <p>Thread-safe.
 */
public final class OtlpLogsFormat implements RecordFormat {
    public static final String PROTO = "otlp-proto";
    public static final String JSON = "otlp-json";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The id fields OTLP/JSON writes in hex where protobuf's JSON mapping has base64. */
    private static final Set<String> IDS = Set.of("traceId", "trace_id", "spanId", "span_id");

    private final boolean json;

    private OtlpLogsFormat(boolean json) {
        this.json = json;
    }

    /** {@code otlp-proto}. */
    public static OtlpLogsFormat proto() {
        return new OtlpLogsFormat(false);
    }

    /** {@code otlp-json}. */
    public static OtlpLogsFormat json() {
        return new OtlpLogsFormat(true);
    }

    @Override
    public String name() {
        return json ? JSON : PROTO;
    }

    /**
     * @throws InvalidEventException UNREADABLE for bytes that are no export request in the encoding
     */
    @Override
    public ReadRecord read(byte[] bytes) {
        ExportLogsServiceRequest request = json ? fromJson(bytes) : fromProto(bytes);
        return ReadRecord.holding(OtlpLogRecords.of(request), () -> bytes);
    }

    @Override
    public boolean holdsMany() {
        return true;
    }

    @Override
    public Optional<String> cannotYield(FieldPath path) {
        Object first = path.steps().get(0);
        if (first instanceof String name && !OtlpLogRecords.FIELDS.contains(name)) {
            return Optional.of("an OTLP log record has no " + name + " (it has " + String.join(", ",
                    new java.util.TreeSet<>(OtlpLogRecords.FIELDS)) + ")");
        }
        return Optional.empty();
    }

    private static ExportLogsServiceRequest fromProto(byte[] bytes) {
        try {
            return ExportLogsServiceRequest.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidEventException(Refusal.UNREADABLE, "value", preview(bytes), "is no OTLP export "
                    + "request in protobuf (" + PROTO + "): " + e.getMessage());
        }
    }

    private static ExportLogsServiceRequest fromJson(byte[] bytes) {
        try {
            JsonNode tree = MAPPER.readTree(bytes);
            if (tree == null || !tree.isObject()) {
                throw new IOException("not a JSON object");
            }
            hexIdsAsBase64(tree);
            ExportLogsServiceRequest.Builder request = ExportLogsServiceRequest.newBuilder();
            JsonFormat.parser().ignoringUnknownFields().merge(MAPPER.writeValueAsString(tree), request);
            return request.build();
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidEventException(Refusal.UNREADABLE, "value", preview(bytes), "is no OTLP export "
                    + "request in OTLP/JSON (" + JSON + "): " + e.getMessage());
        }
    }

    /** Rewrites OTLP/JSON's hex trace and span ids as the base64 protobuf's JSON mapping reads bytes in. */
    private static void hexIdsAsBase64(JsonNode node) {
        if (node.isArray()) {
            node.forEach(OtlpLogsFormat::hexIdsAsBase64);
        } else if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (IDS.contains(field.getKey()) && field.getValue().isTextual()) {
                    String hex = field.getValue().asText();
                    try {
                        field.setValue(TextNode.valueOf(Base64.getEncoder().encodeToString(HexFormat.of()
                                .parseHex(hex))));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(field.getKey() + " '" + hex + "' is not hex");
                    }
                } else {
                    hexIdsAsBase64(field.getValue());
                }
            }
        }
    }

    private static String preview(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 80), StandardCharsets.UTF_8);
        return bytes.length > 80 ? text + "..." : text;
    }
}
