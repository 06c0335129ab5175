package dev.rowflow.keying.logical;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each logical type's written form, from each way a producer sends it. */
class LogicalTypeTest {
    private static Object convert(String type, Object value) {
        return LogicalType.parse(type).convert("after.x", value);
    }

    @Test
    void shouldWriteEveryDigitOfTheUnitAlsoWhereTheFractionIsZero() {
        // 2024-02-29T12:00:00Z, the value Instant.toString() printed without its fraction.
        assertThat(convert("timestamp-millis", 1709208000000L)).isEqualTo("2024-02-29T12:00:00.000Z");
        assertThat(convert("timestamp-micros", 1709208000000000L)).isEqualTo("2024-02-29T12:00:00.000000Z");
        assertThat(convert("timestamp-nanos", 1709208000000000000L)).isEqualTo("2024-02-29T12:00:00.000000000Z");
        assertThat(convert("timestamp-micros", 1709208000123450L)).isEqualTo("2024-02-29T12:00:00.123450Z");
        assertThat(convert("time-millis", 43_200_000)).isEqualTo("12:00:00.000");
        assertThat(convert("time-micros", 43_200_000_000L)).isEqualTo("12:00:00.000000");
        assertThat(convert("time-nanos", 43_200_000_000_001L)).isEqualTo("12:00:00.000000001");
        assertThat(convert("date", 19782)).isEqualTo("2024-02-29");
    }

    @Test
    void shouldWriteTimesBeforeTheEpochAndTheEndOfTheDay() {
        assertThat(convert("timestamp-micros", -1L)).isEqualTo("1969-12-31T23:59:59.999999Z");
        assertThat(convert("timestamp-millis", -62135596800000L)).isEqualTo("0001-01-01T00:00:00.000Z");
        assertThat(convert("date", -719162)).isEqualTo("0001-01-01");
        // PostgreSQL's time '24:00:00', as Debezium sends it: after every other time of the day.
        assertThat(convert("time-micros", 86_400_000_000L)).isEqualTo("24:00:00.000000");
        assertThat(convert("time-micros", "24:00:00")).isEqualTo("24:00:00.000000");
    }

    @Test
    void shouldWriteZonedValuesInUtcWithNineDigits() {
        assertThat(convert("timestamp-zoned", "2024-02-29T13:00:00+01:00")).isEqualTo("2024-02-29T12:00:00.000000000Z");
        assertThat(convert("timestamp-zoned", "2024-02-29T12:00:00.1234Z")).isEqualTo("2024-02-29T12:00:00.123400000Z");
        assertThat(convert("time-zoned", "13:30:00+02:00")).isEqualTo("11:30:00.000000000Z");
    }

    @Test
    void shouldReadItsOwnFormAndIsoTextToTheSameValue() {
        assertThat(convert("timestamp-micros", "2024-02-29T12:00:00Z")).isEqualTo("2024-02-29T12:00:00.000000Z");
        assertThat(convert("timestamp-micros", "2024-02-29T12:00:00")).isEqualTo("2024-02-29T12:00:00.000000Z");
        assertThat(convert("time-millis", "08:30")).isEqualTo("08:30:00.000");
        assertThat(convert("date", "2024-02-29")).isEqualTo("2024-02-29");
        assertThat(convert("decimal(10,2)", new BigDecimal("12.5"))).isEqualTo(new BigDecimal("12.50"));
    }

    @Test
    void shouldReadDecimalsFromUnscaledBytesKeepingTheScalesDigits() {
        String unscaled = Base64.getEncoder().encodeToString(BigInteger.valueOf(12340).toByteArray());
        assertThat(convert("decimal(10,2)", unscaled)).isEqualTo(new BigDecimal("123.40"));
        assertThat(((BigDecimal) convert("decimal(10,2)", unscaled)).toPlainString()).isEqualTo("123.40");
        assertThat(convert("decimal(10,2)", BigInteger.valueOf(-5).toByteArray())).isEqualTo(new BigDecimal("-0.05"));
        // decimal.handling.mode=double: the number the producer wrote, at the declared scale.
        assertThat(convert("decimal(10,2)", new BigDecimal("99.9"))).isEqualTo(new BigDecimal("99.90"));
        assertThat(convert("decimal", Map.of("scale", 3, "value", "/g=="))).isEqualTo(new BigDecimal("-0.002"));
        assertThat(convert("decimal", 7L)).isEqualTo(new BigDecimal("7"));
        assertThat(convert("year", 2024)).isEqualTo(2024L);
        assertThat(convert("interval-micros", 3_600_000_000L)).isEqualTo(3_600_000_000L);
        assertThat(convert("interval", "P1Y2M3DT4H5M6.78S")).isEqualTo("P1Y2M3DT4H5M6.78S");
    }

    @Test
    void shouldRefuseAValueItsTypeDoesNotReadNamingTheFieldAndTheValue() {
        assertRefused("decimal(10,2)", new BigDecimal("1.234"), Refusal.OUT_OF_RANGE,
                "invalid after.x '1.234': has more than 2 digits after the point, where decimal(10,2) keeps 2");
        assertRefused("decimal(4,2)", new BigDecimal("123.4"), Refusal.OUT_OF_RANGE,
                "invalid after.x '123.40': has more than 4 digits, where decimal(4,2) keeps 4");
        assertRefused("decimal(10,2)", "not base64!", Refusal.WRONG_KIND,
                "invalid after.x 'not base64!': is not a decimal(10,2) value: Illegal base64 character 20");
        assertRefused("timestamp-micros", true, Refusal.WRONG_KIND,
                "invalid after.x 'true': is not a timestamp-micros value: a whole number is expected");
        assertRefused("timestamp-millis", "2024-02-29T12:00:00.0001Z", Refusal.WRONG_KIND,
                "invalid after.x '2024-02-29T12:00:00.0001Z': is not a timestamp-millis value: it has more than 3 digits "
                        + "after the second");
        assertRefused("time-micros", 86_400_000_001L, Refusal.WRONG_KIND,
                "invalid after.x '86400000001': is not a time-micros value: a time of day is 0 to 24:00:00");
        assertRefused("interval", "1 day", Refusal.WRONG_KIND,
                "invalid after.x '1 day': is not a interval value: an ISO-8601 duration (P...) is expected");
    }

    private static void assertRefused(String type, Object value, Refusal refusal, String message) {
        assertThatThrownBy(() -> convert(type, value)).isInstanceOfSatisfying(InvalidEventException.class,
                e -> assertThat(e.refusal()).isEqualTo(refusal)).hasMessage(message);
    }

    @Test
    void shouldParseTheDeclaredNamesAndTheConnectNamesToTheSameTypes() {
        assertThat(LogicalType.ofConnect("io.debezium.time.MicroTimestamp", null)).isEqualTo(LogicalType.parse("timestamp-micros"));
        assertThat(LogicalType.ofConnect("org.apache.kafka.connect.data.Decimal",
                Map.of("scale", "2", "connect.decimal.precision", "10"))).isEqualTo(LogicalType.parse("decimal(10, 2)"));
        assertThat(LogicalType.ofConnect("io.debezium.data.Json", null)).isNull();
        assertThat(LogicalType.parse("DECIMAL(5)").name()).isEqualTo("decimal(5,0)");
        assertThatThrownBy(() -> LogicalType.parse("timestamp")).hasMessageStartingWith("'timestamp' is not a type: the types are date,");
        assertThatThrownBy(() -> LogicalType.parse("decimal(2,3)")).hasMessage(
                "'decimal(2,3)' is not a decimal type: precision at least 1, scale at most the precision");
    }
}
