package dev.rowflow.pipeline.otlp;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.FieldPath;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OtlpLogsFormatTest {

    private static List<Map<String, Object>> trees(ReadRecord read) {
        return read.records().stream().map(ReadRecord::tree).toList();
    }

    @Test
    void shouldReadEachLogRecordOfAnExportRequestWithItsResourceAndScope() {
        ReadRecord read = OtlpLogsFormat.proto().read(CollectorLogs.proto());

        assertThat(read.held()).hasSize(CollectorLogs.RECORDS);
        assertThat(read.records()).extracting(ReadRecord::ordinal).containsExactly(1, 2, 3, 4, 5, 6);
        Map<String, Object> placed = new LinkedHashMap<>();
        placed.put("resource", Map.of("service.name", "checkout", "host.name", "web-1"));
        placed.put("scope", Map.of("name", "io.opentelemetry.checkout", "version", "1.4.0"));
        placed.put("time_unix_nano", CollectorLogs.T);
        placed.put("observed_time_unix_nano", CollectorLogs.T + 76_543_211);
        placed.put("severity_number", 9L);
        placed.put("severity_text", "INFO");
        placed.put("body", "order placed");
        placed.put("attributes", Map.of("http.request.method", "POST", "retries", 2L, "ratio", 0.25, "cached", true,
                "digest", "AQID", "tags", List.of("a", "b")));
        placed.put("trace_id", CollectorLogs.TRACE);
        placed.put("span_id", CollectorLogs.SPAN);
        placed.put("flags", 1L);
        List<Map<String, Object>> trees = trees(read);
        assertThat(trees.get(0)).isEqualTo(placed);
        assertThat(trees.get(1)).containsEntry("body", Map.of("error.type", "timeout", "elapsed_ms", 5012L))
                .containsEntry("event_name", "payment.failed").containsEntry("severity_number", 17L)
                .doesNotContainKey("span_id");
        assertThat(trees.get(2)).doesNotContainKey("time_unix_nano")
                .containsEntry("observed_time_unix_nano", CollectorLogs.T + 2_000_000)
                .containsEntry("scope", Map.of("name", "payments"));
        // The filelog receiver's resource: a host, no service; its scope empty.
        assertThat(trees.get(3)).containsEntry("resource", Map.of("host.name", "web-2")).doesNotContainKey("scope")
                .containsEntry("attributes", Map.of("log.file.name", "access.log"));
        assertThat(trees.get(CollectorLogs.WITHOUT_TIME - 1)).isEqualTo(Map.of("resource", Map.of("host.name", "web-2"),
                "body", "no time at all"));
        assertThat(FieldPath.parse("resource.service.name").resolve(trees.get(0))).isEqualTo("checkout");
    }

    @Test
    void shouldReadTheJsonEncodingAsTheProtobufOne() {
        assertThat(trees(OtlpLogsFormat.json().read(CollectorLogs.json())))
                .isEqualTo(trees(OtlpLogsFormat.proto().read(CollectorLogs.proto())));
        // Other producers of OTLP/JSON: the .proto's names, 64-bit numbers as numbers, a severity by its name.
        String other = "{\"resource_logs\":[{\"scope_logs\":[{\"log_records\":[{\"time_unix_nano\":" + CollectorLogs.T
                + ",\"severity_number\":\"SEVERITY_NUMBER_WARN\",\"body\":{\"string_value\":\"x\"},\"trace_id\":\""
                + CollectorLogs.TRACE + "\"}]}]}]}";
        assertThat(trees(OtlpLogsFormat.json().read(other.getBytes(StandardCharsets.UTF_8))))
                .containsExactly(Map.of("time_unix_nano", CollectorLogs.T, "severity_number", 13L, "body", "x",
                        "trace_id", CollectorLogs.TRACE));
    }

    @Test
    void shouldSetAsideWhatIsNoExportRequestNamingTheEncoding() {
        assertThatThrownBy(() -> OtlpLogsFormat.proto().read(new byte[] {(byte) 0xff, 0x00, 0x01}))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("is no OTLP export request in protobuf")
                .extracting(e -> ((InvalidEventException) e).refusal()).isEqualTo(Refusal.UNREADABLE);
        assertThatThrownBy(() -> OtlpLogsFormat.json().read("[1]".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> OtlpLogsFormat.json().read(("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":"
                + "[{\"traceId\":\"xyz\"}]}]}]}").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("traceId 'xyz' is not hex");
        assertThat(OtlpLogsFormat.proto().cannotYield(FieldPath.parse("message")))
                .hasValueSatisfying(why -> assertThat(why).startsWith("an OTLP log record has no message"));
        assertThat(OtlpLogsFormat.proto().cannotYield(FieldPath.parse("resource.service.name"))).isEmpty();
        // An empty request holds nothing to write.
        assertThat(OtlpLogsFormat.proto().read(new byte[0]).records()).isEmpty();
    }
}
