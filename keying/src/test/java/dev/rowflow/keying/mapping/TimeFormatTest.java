package dev.rowflow.keying.mapping;

import dev.rowflow.keying.InvalidEventException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimeFormatTest {
    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    /** 2026-11-22T08:00:00.123Z, the instant of the shippers' golden values. */
    private static final long GOLDEN = 1795334400123L;
    private static final String VALID_FORMS =
            "valid forms: epoch-ms, epoch-s, epoch-us, epoch-ns, iso8601, pattern:<java.time DateTimeFormatter pattern>, "
                    + "or several of them separated by commas, tried in order";

    private static long millis(String spec, Object value) {
        return TimeFormat.parse(spec, UTC).millis("ts", value);
    }

    private static void assertInvalid(String spec, ZoneId zone, Object value, String message) {
        assertThatThrownBy(() -> TimeFormat.parse(spec, zone).millis("ts", value))
                .isInstanceOf(InvalidEventException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((InvalidEventException) e).field()).isEqualTo("ts"));
    }

    private static void assertInvalid(String spec, Object value, String message) {
        assertInvalid(spec, UTC, value, message);
    }

    // ---------------------------------------------------------------- shippers' golden values

    @Test
    void shouldReadFilebeatTimestamp() {
        assertThat(GOLDEN).isEqualTo(Instant.parse("2026-11-22T08:00:00.123Z").toEpochMilli());
        assertThat(millis("iso8601", "2026-11-22T08:00:00.123Z")).isEqualTo(GOLDEN);
    }

    @Test
    void shouldReadVectorTimestampWithOffsetAndNanosFloored() {
        assertThat(millis("iso8601", "2026-11-22T09:00:00.123456789+01:00")).isEqualTo(GOLDEN);
    }

    @Test
    void shouldReadLogstashTimestamp() {
        assertThat(millis("iso8601", "2026-11-22T08:00:00.123Z")).isEqualTo(GOLDEN);
    }

    @Test
    void shouldReadFluentBitEpochSecondsWithFraction() {
        long expected = Instant.parse("2026-11-23T08:00:00.123Z").toEpochMilli();

        assertThat(millis("epoch-s", new BigDecimal("1795420800.123456"))).isEqualTo(expected).isEqualTo(1795420800123L);
    }

    @Test
    void shouldReadEpochMillisSecondsMicrosNanos() {
        assertThat(millis("epoch-ms", 1795334400123L)).isEqualTo(GOLDEN);
        assertThat(millis("epoch-s", 1795334400L)).isEqualTo(GOLDEN - 123);
        assertThat(millis("epoch-s", 1_700_000_000)).isEqualTo(1_700_000_000_000L);
        assertThat(millis("epoch-us", 1795334400123456L)).isEqualTo(GOLDEN);
        assertThat(millis("epoch-ns", 1795334400123456789L)).isEqualTo(GOLDEN);
    }

    @Test
    void shouldReadAccessLogPatternWithOffset() {
        // The offset in the text wins over the configured zone.
        TimeFormat format = TimeFormat.parse("pattern:dd/MMM/yyyy:HH:mm:ss Z", BERLIN);

        assertThat(format.millis("ts", "22/Nov/2026:08:00:00 +0000")).isEqualTo(GOLDEN - 123);
        assertThat(format.millis("ts", "22/Nov/2026:09:00:00 +0100")).isEqualTo(GOLDEN - 123);
    }

    @Test
    void shouldReadZonelessPatternInConfiguredZone() {
        TimeFormat format = TimeFormat.parse("pattern:yyyy-MM-dd HH:mm:ss.SSSSSS", BERLIN);

        // CET (+01:00) in November, CEST (+02:00) in July.
        assertThat(format.millis("ts", "2026-11-22 09:00:00.123999")).isEqualTo(GOLDEN);
        assertThat(format.millis("ts", "2026-07-01 10:00:00.000000"))
                .isEqualTo(Instant.parse("2026-07-01T08:00:00Z").toEpochMilli());
        assertThat(TimeFormat.parse("pattern:yyyy-MM-dd HH:mm:ss.SSSSSS", UTC).millis("ts", "2026-11-22 08:00:00.123000"))
                .isEqualTo(GOLDEN);
    }

    @Test
    void shouldReadPatternWithZoneId() {
        TimeFormat format = TimeFormat.parse("pattern:yyyy-MM-dd HH:mm:ss VV", UTC);

        assertThat(format.millis("ts", "2026-11-22 09:00:00 Europe/Berlin")).isEqualTo(GOLDEN - 123);
    }

    // ---------------------------------------------------------------- iso8601 variants

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "2026-11-22T08:00:00.123Z",
            "2026-11-22t08:00:00.123z",
            "2026-11-22 08:00:00.123Z",
            "2026-11-22T09:00:00.123+01:00",
            "2026-11-22T09:00:00.123+0100",
            "2026-11-22T09:00:00.123+01",
            "2026-11-22T03:00:00.123-05:00",
            "2026-11-22T08:00:00.1234Z",
            "2026-11-22T08:00:00.123999999Z",
    })
    void shouldReadIso8601Variants(String text) {
        assertThat(millis("iso8601", text)).isEqualTo(GOLDEN);
    }

    @Test
    void shouldReadIso8601WithoutOrWithShortFraction() {
        assertThat(millis("iso8601", "2026-11-22T08:00:00Z")).isEqualTo(GOLDEN - 123);
        assertThat(millis("iso8601", "2026-11-22T08:00:00.1Z")).isEqualTo(GOLDEN - 23);
    }

    @Test
    void shouldFloorIso8601BeforeEpoch() {
        assertThat(millis("iso8601", "1969-12-31T23:59:59.9995Z")).isEqualTo(-1L);
        assertThat(millis("iso8601", "1970-01-01T00:00:00Z")).isZero();
    }

    // ---------------------------------------------------------------- epoch value types

    @Test
    void shouldFloorDecimalsToMillis() {
        assertThat(millis("epoch-s", new BigDecimal("1700000000.123456"))).isEqualTo(1700000000123L);
        assertThat(millis("epoch-s", new BigDecimal("-0.5"))).isEqualTo(-500L);
        assertThat(millis("epoch-s", new BigDecimal("-0.0005"))).isEqualTo(-1L);
        assertThat(millis("epoch-ms", new BigDecimal("-0.5"))).isEqualTo(-1L);
        assertThat(millis("epoch-ms", new BigDecimal("1795334400123.9"))).isEqualTo(GOLDEN);
        assertThat(millis("epoch-us", new BigDecimal("1795334400123456.7"))).isEqualTo(GOLDEN);
        assertThat(millis("epoch-ns", new BigDecimal("1.795334400123456789E18"))).isEqualTo(GOLDEN);
        assertThat(millis("epoch-s", new BigDecimal("1.7E9"))).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void shouldFloorNegativeWholeSubMillisecondUnits() {
        assertThat(millis("epoch-us", -1L)).isEqualTo(-1L);
        assertThat(millis("epoch-ns", -1_000_001L)).isEqualTo(-2L);
        assertThat(millis("epoch-us", 999L)).isZero();
    }

    @Test
    void shouldHandleExtremeExponentsWithoutExpandingThem() {
        assertThat(millis("epoch-s", new BigDecimal("1E-999999999"))).isZero();
        assertThat(millis("epoch-s", new BigDecimal("-1E-999999999"))).isEqualTo(-1L);
        assertInvalid("epoch-s", new BigDecimal("1E+999999999"),
                "invalid ts '1E+999999999': beyond the 64-bit range of epoch milliseconds");
    }

    @Test
    void shouldReadDecimalStrings() {
        assertThat(millis("epoch-s", "1700000000.5")).isEqualTo(1700000000500L);
        assertThat(millis("epoch-s", "-1.5")).isEqualTo(-1500L);
        assertThat(millis("epoch-ms", "1795334400123")).isEqualTo(GOLDEN);
        assertThat(millis("epoch-ns", "1795334400123456789")).isEqualTo(GOLDEN);
        assertThat(millis("epoch-us", "1795334400123456.999")).isEqualTo(GOLDEN);
    }

    @Test
    void shouldReadDoublesAndFloats() {
        assertThat(millis("epoch-s", 1700000000.123)).isEqualTo(1700000000123L);
        assertThat(millis("epoch-s", -0.5)).isEqualTo(-500L);
        assertThat(millis("epoch-s", 1.5f)).isEqualTo(1500L);
        assertThat(millis("epoch-ms", 1795334400123.0)).isEqualTo(GOLDEN);
        assertThat(millis("epoch-ns", 1.795334400123456789E18)).isEqualTo(GOLDEN);
    }

    // ---------------------------------------------------------------- invalid values

    @Test
    void shouldRejectNonNumbersForEpochFormats() {
        assertInvalid("epoch-s", Map.of("a", 1L), "invalid ts '{a=1}': an object, where epoch seconds are expected");
        assertInvalid("epoch-ms", List.of(1L), "invalid ts '[1]': an array, where epoch milliseconds are expected");
        assertInvalid("epoch-us", true, "invalid ts 'true': a boolean, where epoch microseconds are expected");
        assertInvalid("epoch-ns", new byte[] {1, 2, 3}, "invalid ts '<3 bytes>': bytes, where epoch nanoseconds are expected");
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"abc", "", "-", "1.", ".5", "1e3", "+5", " 5", "5 ", "1.2.3", "0x10"})
    void shouldRejectNonNumericStrings(String text) {
        assertInvalid("epoch-ms", text, "invalid ts '" + text + "': '" + text + "' is not epoch milliseconds");
    }

    @Test
    void shouldShortenLongStringInReason() {
        String text = "9".repeat(100);

        assertInvalid("epoch-s", text, "invalid ts '" + text + "': '" + "9".repeat(40) + "...' is not epoch seconds");
    }

    @Test
    void shouldRejectNumbersBeyond64Bits() {
        assertInvalid("epoch-ms", new BigInteger("18446744073709551616"),
                "invalid ts '18446744073709551616': a number beyond 64 bits");
    }

    @Test
    void shouldRejectMillisOverflow() {
        String reason = "beyond the 64-bit range of epoch milliseconds";
        assertInvalid("epoch-s", Long.MAX_VALUE, "invalid ts '9223372036854775807': " + reason);
        assertInvalid("epoch-s", new BigDecimal("9223372036854775.808"), "invalid ts '9223372036854775.808': " + reason);
        assertInvalid("epoch-ms", "99999999999999999999", "invalid ts '99999999999999999999': " + reason);
        assertInvalid("epoch-s", 1e300, "invalid ts '1.0E300': " + reason);
        assertThat(millis("epoch-s", new BigDecimal("9223372036854775.807"))).isEqualTo(Long.MAX_VALUE);
        assertThat(millis("epoch-ms", Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void shouldRejectNonFiniteDoubles() {
        assertInvalid("epoch-s", Double.NaN, "invalid ts 'NaN': not a finite number, where epoch seconds are expected");
        assertInvalid("epoch-ms", Double.POSITIVE_INFINITY,
                "invalid ts 'Infinity': not a finite number, where epoch milliseconds are expected");
    }

    @Test
    void shouldRejectNonStringsForIso8601() {
        assertInvalid("iso8601", 1795334400123L, "invalid ts '1795334400123': a whole number, where an ISO-8601 time is expected");
        assertInvalid("iso8601", new BigDecimal("1.5"), "invalid ts '1.5': a number with a fraction, where an ISO-8601 time is expected");
        assertInvalid("iso8601", Map.of(), "invalid ts '{}': an object, where an ISO-8601 time is expected");
        assertInvalid("iso8601", false, "invalid ts 'false': a boolean, where an ISO-8601 time is expected");
    }

    @Test
    void shouldRejectUnparseableIso8601() {
        String prefix = "': not an ISO-8601 time with an offset: ";
        assertInvalid("iso8601", "2026-11-22T08:00:00",
                "invalid ts '2026-11-22T08:00:00" + prefix + "could not be parsed at index 19");
        assertInvalid("iso8601", "2026-11-2208:00:00Z",
                "invalid ts '2026-11-2208:00:00Z" + prefix + "could not be parsed at index 10");
        assertInvalid("iso8601", "22/Nov/2026:08:00:00 +0000",
                "invalid ts '22/Nov/2026:08:00:00 +0000" + prefix + "could not be parsed at index 0");
        assertInvalid("iso8601", "2026-13-22T08:00:00Z",
                "invalid ts '2026-13-22T08:00:00Z" + prefix + "Invalid value for MonthOfYear (valid values 1 - 12): 13");
        assertInvalid("iso8601", "2026-02-30T08:00:00Z",
                "invalid ts '2026-02-30T08:00:00Z" + prefix + "Invalid date 'FEBRUARY 30'");
    }

    @Test
    void shouldRejectPatternMismatchesAndNonStrings() {
        String spec = "pattern:dd/MMM/yyyy:HH:mm:ss Z";
        assertInvalid(spec, "22/Nov/2026:08:00:00",
                "invalid ts '22/Nov/2026:08:00:00': does not match pattern 'dd/MMM/yyyy:HH:mm:ss Z': could not be parsed at index 20");
        assertInvalid(spec, 5L,
                "invalid ts '5': a whole number, where a time in pattern 'dd/MMM/yyyy:HH:mm:ss Z' is expected");
    }

    // ---------------------------------------------------------------- specs

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoch-ms", "epoch-s", "epoch-us", "epoch-ns", "iso8601", "pattern:yyyy-MM-dd HH:mm:ss"})
    void shouldKeepSpecAsConfigured(String spec) {
        TimeFormat format = TimeFormat.parse(spec, BERLIN);

        assertThat(format.spec()).isEqualTo(spec);
        assertThat(format).hasToString(spec);
        assertThat(TimeFormat.parse(spec, BERLIN)).isEqualTo(format);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "epoch-minutes               | is unknown",
            "ISO8601                     | is unknown",
            "` epoch-ms`                 | is unknown",
            "pattern:                    | has an empty pattern",
            "pattern:yyyy-MM-dd'T        | has a bad pattern (Pattern ends with an incomplete string literal: yyyy-MM-dd'T)",
            "pattern:yyyy-MM-dd bb       | has a bad pattern (Unknown pattern letter: b)",
            "pattern:HH:mm:ss            | has a pattern that gives no complete date and time",
            "pattern:YYYY-MM-dd HH:mm:ss | has a pattern that gives no complete date and time",
            "epoch-s, iso8601, epoch-s   | names epoch-s twice",
            "epoch-s, epoch-ms           | has epoch-ms after epoch-s, which takes every number first: one epoch unit per list (a time field's unit cannot be told from its value)",
            "iso8601, epoch-minutes      | has 'epoch-minutes', which is unknown",
            "iso8601, pattern:HH:mm      | has 'pattern:HH:mm', which has a pattern that gives no complete date and time",
    })
    void shouldRejectBadSpecsNamingThem(String spec, String problem) {
        assertThatThrownBy(() -> TimeFormat.parse(spec, UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("time format '" + spec + "' " + problem + "; " + VALID_FORMS);
    }

    @Test
    void shouldRejectMissingSpec() {
        assertThatThrownBy(() -> TimeFormat.parse(null, UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("time format is missing; " + VALID_FORMS);
    }

    // ---------------------------------------------------------------- several formats

    @Test
    void shouldTakeTheFirstFormatThatReadsTheValue() {
        // Fluent Bit before and after a configuration change: epoch seconds as a double, then ISO-8601 text.
        TimeFormat format = TimeFormat.parse("epoch-s, iso8601", UTC);
        assertThat(format.millis("ts", 1795334400.123)).isEqualTo(GOLDEN);
        assertThat(format.millis("ts", "1795334400.123")).isEqualTo(GOLDEN);
        assertThat(format.millis("ts", "2026-11-22T08:00:00.123Z")).isEqualTo(GOLDEN);
        assertThat(format.millis("ts", "2026-11-22 09:00:00.123+01:00")).isEqualTo(GOLDEN);
        assertThat(format.spec()).isEqualTo("epoch-s, iso8601");
        assertThat(TimeFormat.parse("epoch-s,iso8601", UTC).millis("ts", 1795334400.123)).isEqualTo(GOLDEN);
        // A comma inside a pattern is the pattern's: only a comma before a format name separates.
        TimeFormat rfc1123 = TimeFormat.parse("iso8601, pattern:EEE, dd MMM yyyy HH:mm:ss.SSS z", UTC);
        assertThat(rfc1123.millis("ts", "Sun, 22 Nov 2026 08:00:00.123 GMT")).isEqualTo(GOLDEN);
        assertThat(rfc1123.millis("ts", "2026-11-22T08:00:00.123Z")).isEqualTo(GOLDEN);
        assertThat(TimeFormat.parse("pattern:EEE, dd MMM yyyy HH:mm:ss.SSS z", UTC).millis("ts",
                "Sun, 22 Nov 2026 08:00:00.123 GMT")).isEqualTo(GOLDEN);
        // The order is the user's: a pattern first wins over iso8601 where both read the value.
        TimeFormat local = TimeFormat.parse("pattern:yyyy-MM-dd HH:mm:ss, epoch-ms", BERLIN);
        assertThat(local.millis("ts", "2026-11-22 09:00:00")).isEqualTo(GOLDEN - 123);
        assertThat(local.millis("ts", 1795334400123L)).isEqualTo(GOLDEN);
    }

    @Test
    void shouldNameEveryFormatTriedWhenNoneReadsTheValue() {
        assertInvalid("epoch-s, iso8601", "yesterday", "invalid ts 'yesterday': matches none of the time formats "
                + "epoch-s, iso8601 (iso8601: not an ISO-8601 time with an offset: could not be "
                + "parsed at index 0)");
        assertInvalid("epoch-s, iso8601", true, "invalid ts 'true': matches none of the time formats epoch-s, iso8601 "
                + "(a boolean)");
        assertInvalid("iso8601, pattern:dd/MMM/yyyy:HH:mm:ss Z", 5L, "invalid ts '5': matches none of the time formats "
                + "iso8601, pattern:dd/MMM/yyyy:HH:mm:ss Z (a whole number)");
        assertInvalid("epoch-ms, iso8601", 1e300, "invalid ts '1.0E300': matches none of the time formats epoch-ms, "
                + "iso8601 (epoch-ms: beyond the 64-bit range of epoch milliseconds)");
    }
}
