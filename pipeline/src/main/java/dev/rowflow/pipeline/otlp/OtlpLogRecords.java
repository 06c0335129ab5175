package dev.rowflow.pipeline.otlp;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import com.google.protobuf.ByteString;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The log records of an OTLP export request, each as a record of its own: the tree a mapping's
 * paths address, its resource's and scope's fields with it.
 *
 * <pre>
 * resource.&lt;attribute&gt;        the resource's attributes ({@code resource.service.name}, {@code resource.host.name})
 * scope.name, scope.version   the instrumentation scope
 * scope.attributes.&lt;attribute&gt;
 * time_unix_nano              when the event happened, ns since the epoch (absent where unknown: 0)
 * observed_time_unix_nano     when the collector saw it (absent where 0)
 * severity_number             1-24 (absent where unspecified: 0)
 * severity_text               as the source wrote it (INFO, warn...)
 * body                        text, or a map or list for a structured body
 * attributes.&lt;attribute&gt;      the log record's attributes ({@code attributes.http.request.method})
 * trace_id, span_id           lowercase hex, 32 and 16 digits (absent where empty or all zero)
 * flags                       the W3C trace flags (absent where 0)
 * event_name                  the event's name (absent where empty)
 * dropped_attributes_count    (absent where 0)
 * </pre>
 * An attribute's or the body's value: text, a whole number (long), a double, a boolean, a list
 * (array), a map (key-value list), or bytes as base64 text. Attributes keep their dotted names as
 * one key; a path reads them either way ({@code resource.service.name}).
 */
public final class OtlpLogRecords {
    /** The first names a path of a log record can start with. */
    static final Set<String> FIELDS = Set.of("resource", "scope", "time_unix_nano", "observed_time_unix_nano",
            "severity_number", "severity_text", "body", "attributes", "trace_id", "span_id", "flags", "event_name",
            "dropped_attributes_count");

    private OtlpLogRecords() {
    }

    /** Each log record of {@code request}, in order: resource by resource, scope by scope. */
    public static List<Map<String, Object>> of(ExportLogsServiceRequest request) {
        List<Map<String, Object>> records = new ArrayList<>();
        for (ResourceLogs resourceLogs : request.getResourceLogsList()) {
            Map<String, Object> resource = attributes(resourceLogs.getResource().getAttributesList());
            for (ScopeLogs scopeLogs : resourceLogs.getScopeLogsList()) {
                Map<String, Object> scope = scope(scopeLogs.getScope());
                for (LogRecord log : scopeLogs.getLogRecordsList()) {
                    records.add(tree(resource, scope, log));
                }
            }
        }
        return records;
    }

    private static Map<String, Object> tree(Map<String, Object> resource, Map<String, Object> scope, LogRecord log) {
        Map<String, Object> tree = new LinkedHashMap<>();
        if (!resource.isEmpty()) {
            tree.put("resource", resource);
        }
        if (!scope.isEmpty()) {
            tree.put("scope", scope);
        }
        putNonZero(tree, "time_unix_nano", log.getTimeUnixNano());
        putNonZero(tree, "observed_time_unix_nano", log.getObservedTimeUnixNano());
        putNonZero(tree, "severity_number", log.getSeverityNumberValue());
        putNonEmpty(tree, "severity_text", log.getSeverityText());
        if (log.hasBody()) {
            Object body = value(log.getBody());
            if (body != null) {
                tree.put("body", body);
            }
        }
        Map<String, Object> attributes = attributes(log.getAttributesList());
        if (!attributes.isEmpty()) {
            tree.put("attributes", attributes);
        }
        putId(tree, "trace_id", log.getTraceId());
        putId(tree, "span_id", log.getSpanId());
        putNonZero(tree, "flags", log.getFlags());
        putNonEmpty(tree, "event_name", log.getEventName());
        putNonZero(tree, "dropped_attributes_count", log.getDroppedAttributesCount());
        return tree;
    }

    private static Map<String, Object> scope(InstrumentationScope scope) {
        Map<String, Object> tree = new LinkedHashMap<>();
        putNonEmpty(tree, "name", scope.getName());
        putNonEmpty(tree, "version", scope.getVersion());
        Map<String, Object> attributes = attributes(scope.getAttributesList());
        if (!attributes.isEmpty()) {
            tree.put("attributes", attributes);
        }
        return tree;
    }

    /** Attributes by key, in order; one without a value is left out, a key given twice keeps its last value. */
    private static Map<String, Object> attributes(List<KeyValue> attributes) {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (KeyValue attribute : attributes) {
            Object value = value(attribute.getValue());
            if (value != null) {
                tree.put(attribute.getKey(), value);
            }
        }
        return tree;
    }

    /** An AnyValue as a record tree's value, or null where it holds none. */
    private static Object value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> value.getBoolValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case BYTES_VALUE -> Base64.getEncoder().encodeToString(value.getBytesValue().toByteArray());
            case ARRAY_VALUE -> {
                List<Object> values = new ArrayList<>();
                for (AnyValue element : value.getArrayValue().getValuesList()) {
                    Object one = value(element);
                    values.add(one == null ? dev.rowflow.keying.mapping.RecordTree.NULL : one);
                }
                yield values;
            }
            case KVLIST_VALUE -> attributes(value.getKvlistValue().getValuesList());
            // Not set, or a string by index into a dictionary (profiles), which logs do not use.
            default -> null;
        };
    }

    private static void putNonZero(Map<String, Object> tree, String name, long value) {
        if (value != 0) {
            tree.put(name, value);
        }
    }

    private static void putNonEmpty(Map<String, Object> tree, String name, String value) {
        if (!value.isEmpty()) {
            tree.put(name, value);
        }
    }

    /** A trace or span id in lowercase hex, as W3C trace context and OTLP/JSON write it; none if empty or zero. */
    private static void putId(Map<String, Object> tree, String name, ByteString id) {
        for (int i = 0; i < id.size(); i++) {
            if (id.byteAt(i) != 0) {
                tree.put(name, HexFormat.of().formatHex(id.toByteArray()));
                return;
            }
        }
    }
}
