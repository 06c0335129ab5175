package dev.rowflow.keying.logical;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For every temporal logical type: the byte order of the written values is their time order, and
 * converting a written value again gives it back. Values from the years 0000 to 9999, as a change
 * event carries them: units since the epoch or midnight, and zoned text with any offset and as few
 * fraction digits as Debezium prints.
 */
class TemporalOrderProperties {
    private static final long FIRST_SECOND = LocalDate.of(0, 1, 1).toEpochDay() * 86_400L;
    private static final long LAST_SECOND = LocalDate.of(9999, 12, 31).toEpochDay() * 86_400L + 86_399L;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    @Property(tries = 3000)
    void datesSortAsTheirDays(@ForAll("days") long a, @ForAll("days") long b) {
        assertOrdered(LogicalType.parse("date"), a, b, Long.compare(a, b));
    }

    @Property(tries = 3000)
    void timesSortAsTheirTimeOfDay(@ForAll("units") int unit, @ForAll("fractions") double x, @ForAll("fractions") double y) {
        // 0 to 24:00:00 inclusive, in the unit: PostgreSQL's time holds 24:00:00.
        long perDay = NANOS_PER_DAY / unitNanos(unit);
        long a = Math.min(perDay, (long) (x * (perDay + 1))), b = Math.min(perDay, (long) (y * (perDay + 1)));
        assertOrdered(LogicalType.parse("time-" + unitName(unit)), a, b, Long.compare(a, b));
    }

    @Property(tries = 3000)
    void timestampsSortAsTheirInstants(@ForAll("units") int unit, @ForAll("instants") Instant a, @ForAll("instants") Instant b) {
        long per = unitNanos(unit);
        Instant ta = within(a, unit).truncatedTo(chrono(unit));
        Instant tb = within(b, unit).truncatedTo(chrono(unit));
        long ua = Math.addExact(Math.multiplyExact(ta.getEpochSecond(), 1_000_000_000L / per), ta.getNano() / per);
        long ub = Math.addExact(Math.multiplyExact(tb.getEpochSecond(), 1_000_000_000L / per), tb.getNano() / per);
        assertOrdered(LogicalType.parse("timestamp-" + unitName(unit)), ua, ub, ta.compareTo(tb));
    }

    @Property(tries = 3000)
    void zonedTimestampsSortAsTheirInstantsWhateverTheirOffset(@ForAll("instants") Instant a, @ForAll("offsets") ZoneOffset oa,
                                                              @ForAll("instants") Instant b, @ForAll("offsets") ZoneOffset ob) {
        // Debezium prints ISO_OFFSET_DATE_TIME: no fraction when it is zero, else as few digits as it needs.
        String ta = OffsetDateTime.ofInstant(a, oa).toString(), tb = OffsetDateTime.ofInstant(b, ob).toString();
        assertOrdered(LogicalType.parse("timestamp-zoned"), ta, tb, a.compareTo(b));
    }

    @Property(tries = 3000)
    void zonedTimesSortAsTheirTimeOfDayInUtc(@ForAll("fractions") double x, @ForAll("offsets") ZoneOffset oa,
                                            @ForAll("fractions") double y, @ForAll("offsets") ZoneOffset ob) {
        OffsetTime a = OffsetTime.of(java.time.LocalTime.ofNanoOfDay((long) (x * (NANOS_PER_DAY - 1))), ZoneOffset.UTC)
                .withOffsetSameInstant(oa);
        OffsetTime b = OffsetTime.of(java.time.LocalTime.ofNanoOfDay((long) (y * (NANOS_PER_DAY - 1))), ZoneOffset.UTC)
                .withOffsetSameInstant(ob);
        assertOrdered(LogicalType.parse("time-zoned"), a.toString(), b.toString(),
                a.withOffsetSameInstant(ZoneOffset.UTC).toLocalTime().compareTo(b.withOffsetSameInstant(ZoneOffset.UTC).toLocalTime()));
    }

    private static void assertOrdered(LogicalType type, Object a, Object b, int timeOrder) {
        String wa = (String) type.convert("a", a), wb = (String) type.convert("b", b);
        int byteOrder = Arrays.compareUnsigned(wa.getBytes(StandardCharsets.UTF_8), wb.getBytes(StandardCharsets.UTF_8));
        assertThat(Integer.signum(byteOrder)).as("%s: %s (%s) vs %s (%s)", type, wa, a, wb, b).isEqualTo(Integer.signum(timeOrder));
        assertThat(type.convert("a", wa)).as("%s converted again", wa).isEqualTo(wa);
    }

    /** The instant, folded into the years a long of nanoseconds reaches (1677 to 2262) for the nanosecond types. */
    private static Instant within(Instant instant, int unit) {
        return unit != 9 ? instant
                : Instant.ofEpochSecond(Math.floorMod(instant.getEpochSecond(), 18_000_000_000L) - 9_000_000_000L, instant.getNano());
    }

    private static long unitNanos(int unit) {
        return unit == 3 ? 1_000_000L : unit == 6 ? 1_000L : 1L;
    }

    private static String unitName(int unit) {
        return unit == 3 ? "millis" : unit == 6 ? "micros" : "nanos";
    }

    private static ChronoUnit chrono(int unit) {
        return unit == 3 ? ChronoUnit.MILLIS : unit == 6 ? ChronoUnit.MICROS : ChronoUnit.NANOS;
    }

    @Provide
    Arbitrary<Long> days() {
        return Arbitraries.longs().between(FIRST_SECOND / 86_400L, LAST_SECOND / 86_400L)
                .edgeCases(e -> e.add(0L).add(-1L));
    }

    @Provide
    Arbitrary<Integer> units() {
        return Arbitraries.of(3, 6, 9);
    }

    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.doubles().between(0, 1).edgeCases(e -> e.add(0.0).add(0.9999999999999999));
    }

    @Provide
    Arbitrary<Instant> instants() {
        // Seconds with a zero fraction half the time: the values Instant.toString() printed short.
        Arbitrary<Long> seconds = Arbitraries.longs().between(FIRST_SECOND, LAST_SECOND).edgeCases(e -> e.add(0L).add(-1L));
        Arbitrary<Integer> nanos = Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(0, 999_999_999),
                Arbitraries.integers().between(0, 999).map(ms -> ms * 1_000_000));
        return Combinators.combine(seconds, nanos).as(Instant::ofEpochSecond);
    }

    @Provide
    Arbitrary<ZoneOffset> offsets() {
        return Arbitraries.integers().between(-18 * 4, 18 * 4).map(q -> ZoneOffset.ofTotalSeconds(q * 900));
    }
}
