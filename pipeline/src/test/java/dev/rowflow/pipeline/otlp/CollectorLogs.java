package dev.rowflow.pipeline.otlp;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * One export request as the OpenTelemetry Collector's Kafka exporter writes it, in both its
 * encodings: {@code otlp_proto} (the request's protobuf bytes, pdata's ProtoMarshaler) and
 * {@code otlp_json} (pdata's JSONMarshaler, {@code pdata/internal/generated_proto_*.go}: lowerCamelCase
 * names in the order of the .proto, 64-bit numbers as strings, 32-bit ones and enums as numbers,
 * ids in hex, empty and zero values left out but a resource, a scope and a body, written as
 * {@code {}} when empty). The exporter writes one Kafka record per batch, without a key unless
 * told to partition (by resource: a hash of its attributes; by trace: the trace id in hex). Two resources -- an SDK's service and a filelog
 * receiver's file, which has no service.name -- and every shape of a log record a producer writes:
 * a text and a structured body, attributes of every type, trace context, an event name, a record
 * without its own time (its observed time stands in), and one with no time at all, which no row
 * can be made of.
 */
public final class CollectorLogs {
    /** The log records, in order; {@value #WITHOUT_TIME} has no time at all. */
    public static final int RECORDS = 6;
    /** The 1-based position of the record without any time. */
    public static final int WITHOUT_TIME = 5;
    public static final long T = 1_732_870_800_123_456_789L;
    public static final String TRACE = "5b8efff798038103d269b633813fc60c";
    public static final String SPAN = "eee19b7ec3c1b174";

    private CollectorLogs() {
    }

    private static KeyValue attribute(String key, AnyValue value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    private static AnyValue text(String value) {
        return AnyValue.newBuilder().setStringValue(value).build();
    }

    /** The request, built with OTLP's own messages. */
    public static ExportLogsServiceRequest request() {
        LogRecord placed = LogRecord.newBuilder().setTimeUnixNano(T).setObservedTimeUnixNano(T + 76_543_211)
                .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_INFO).setSeverityText("INFO")
                .setBody(text("order placed"))
                .addAttributes(attribute("http.request.method", text("POST")))
                .addAttributes(attribute("retries", AnyValue.newBuilder().setIntValue(2).build()))
                .addAttributes(attribute("ratio", AnyValue.newBuilder().setDoubleValue(0.25).build()))
                .addAttributes(attribute("cached", AnyValue.newBuilder().setBoolValue(true).build()))
                .addAttributes(attribute("digest", AnyValue.newBuilder()
                        .setBytesValue(ByteString.copyFrom(new byte[] {1, 2, 3})).build()))
                .addAttributes(attribute("tags", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(text("a")).addValues(text("b"))).build()))
                .setTraceId(ByteString.copyFrom(HexFormat.of().parseHex(TRACE)))
                .setSpanId(ByteString.copyFrom(HexFormat.of().parseHex(SPAN))).setFlags(1).build();
        LogRecord structured = LogRecord.newBuilder().setTimeUnixNano(T + 1_000_000)
                .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_ERROR).setSeverityText("ERROR")
                .setBody(AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                        .addValues(attribute("error.type", text("timeout")))
                        .addValues(attribute("elapsed_ms", AnyValue.newBuilder().setIntValue(5012).build()))).build())
                .setEventName("payment.failed")
                .setTraceId(ByteString.copyFrom(HexFormat.of().parseHex(TRACE))).build();
        LogRecord untimed = LogRecord.newBuilder().setObservedTimeUnixNano(T + 2_000_000).setSeverityText("warn")
                .setBody(text("slow response")).build();
        ResourceLogs service = ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(attribute("service.name", text("checkout")))
                        .addAttributes(attribute("host.name", text("web-1"))))
                .addScopeLogs(ScopeLogs.newBuilder().setScope(InstrumentationScope.newBuilder()
                                .setName("io.opentelemetry.checkout").setVersion("1.4.0"))
                        .addLogRecords(placed).addLogRecords(structured))
                .addScopeLogs(ScopeLogs.newBuilder().setScope(InstrumentationScope.newBuilder().setName("payments"))
                        .addLogRecords(untimed))
                .setSchemaUrl("https://opentelemetry.io/schemas/1.26.0").build();
        LogRecord line = LogRecord.newBuilder().setObservedTimeUnixNano(T + 3_000_000)
                .setBody(text("GET /health 200"))
                .addAttributes(attribute("log.file.name", text("access.log"))).build();
        LogRecord timeless = LogRecord.newBuilder().setBody(text("no time at all")).build();
        LogRecord last = LogRecord.newBuilder().setTimeUnixNano(T + 5_000_000).setObservedTimeUnixNano(T + 5_000_001)
                .setBody(text("GET /cart 200")).build();
        ResourceLogs file = ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(attribute("host.name", text("web-2"))))
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(line).addLogRecords(timeless).addLogRecords(last))
                .build();
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(service).addResourceLogs(file).build();
    }

    /** {@code otlp_proto}: the request's protobuf bytes. */
    public static byte[] proto() {
        return request().toByteArray();
    }

    /** {@code otlp_json}: the same request as pdata's JSONMarshaler writes it. */
    public static byte[] json() {
        return ("{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":"
                + "\"checkout\"}},{\"key\":\"host.name\",\"value\":{\"stringValue\":\"web-1\"}}]},\"scopeLogs\":[{\"scope\":"
                + "{\"name\":\"io.opentelemetry.checkout\",\"version\":\"1.4.0\"},\"logRecords\":[{\"timeUnixNano\":\"" + T
                + "\",\"observedTimeUnixNano\":\"" + (T + 76_543_211) + "\",\"severityNumber\":9,\"severityText\":\"INFO\","
                + "\"body\":{\"stringValue\":\"order placed\"},\"attributes\":[{\"key\":\"http.request.method\",\"value\":"
                + "{\"stringValue\":\"POST\"}},{\"key\":\"retries\",\"value\":{\"intValue\":\"2\"}},{\"key\":\"ratio\","
                + "\"value\":{\"doubleValue\":0.25}},{\"key\":\"cached\",\"value\":{\"boolValue\":true}},{\"key\":\"digest\","
                + "\"value\":{\"bytesValue\":\"AQID\"}},{\"key\":\"tags\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue"
                + "\":\"a\"},{\"stringValue\":\"b\"}]}}}],\"flags\":1,\"traceId\":\"" + TRACE + "\",\"spanId\":\"" + SPAN
                + "\"},{\"timeUnixNano\":\"" + (T + 1_000_000) + "\",\"severityNumber\":17,\"severityText\":\"ERROR\","
                + "\"body\":{\"kvlistValue\":{\"values\":[{\"key\":\"error.type\",\"value\":{\"stringValue\":\"timeout\"}},"
                + "{\"key\":\"elapsed_ms\",\"value\":{\"intValue\":\"5012\"}}]}},\"traceId\":\"" + TRACE + "\",\"eventName\":"
                + "\"payment.failed\"}]},{\"scope\":{\"name\":\"payments\"},\"logRecords\":[{"
                + "\"observedTimeUnixNano\":\"" + (T + 2_000_000) + "\",\"severityText\":\"warn\",\"body\":{\"stringValue\":"
                + "\"slow response\"}}]}],\"schemaUrl\":"
                + "\"https://opentelemetry.io/schemas/1.26.0\"},{\"resource\":{\"attributes\":[{\"key\":\"host.name\","
                + "\"value\":{\"stringValue\":\"web-2\"}}]},\"scopeLogs\":[{\"scope\":{},\"logRecords\":[{"
                + "\"observedTimeUnixNano\":\"" + (T + 3_000_000) + "\",\"body\":{\"stringValue\":\"GET /health 200\"},"
                + "\"attributes\":[{\"key\":\"log.file.name\",\"value\":{\"stringValue\":\"access.log\"}}]},{"
                + "\"body\":{\"stringValue\":\"no time at all\"}},{"
                + "\"timeUnixNano\":\"" + (T + 5_000_000) + "\",\"observedTimeUnixNano\":\"" + (T + 5_000_001) + "\","
                + "\"body\":{\"stringValue\":\"GET /cart 200\"}}]}]}]}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
