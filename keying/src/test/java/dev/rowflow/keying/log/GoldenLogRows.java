package dev.rowflow.keying.log;

import dev.rowflow.events.LogEvent;
import dev.rowflow.events.Severity;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Counter;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.layout.UidResolver;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The golden fixture of the log tables: 2,000 {@link LogEvent}s (Avro single-object encoding,
 * base64, one per line, in {@value #EVENTS}) and every row and counter the log mapping makes of
 * them under four variants (in {@value #ROWS}, gzipped text, one line per row). The fixture was
 * recorded from the hand-written log keying that the declared log mapping replaced; the mapping
 * must reproduce it byte for byte -- keys, qualifiers, values and cell timestamps.
 *
 * <p>Row lines (cells sorted by family and qualifier, as HBase stores them): {@code <variant> <table> <key hex> <timestamp> <family hex>:<qualifier hex>=<value hex>...};
 * counter lines: {@code <variant> <table> <row hex> <family hex>:<qualifier hex>+<amount>}.
 *
 * <p>Rewrite (only when the byte format changes on purpose, which it must not):
 * run this class's {@code main} with the keying module's test classpath and the argument
 * {@code keying/src/test/resources/golden}.
 */
public final class GoldenLogRows {
    public static final String EVENTS = "log-events.b64";
    public static final String ROWS = "log-rows.txt.gz";
    public static final int EVENT_COUNT = 2_000;

    /** The layouts of each variant: data, index, rows-as-columns bucket seconds. */
    public record Variant(String name, String dataLayout, String indexLayout, boolean index, int bucketSeconds) {
    }

    public static final List<Variant> VARIANTS = List.of(
            new Variant("default", LogEventRows.DEFAULT_DATA_LAYOUT, LogEventRows.DEFAULT_INDEX_LAYOUT, true, 0),
            new Variant("hashed", "hostname:md5, eventType:md5, timestamp:ts",
                    "bucket(8,hash=hostname) | hostname:text, eventType:text, timestamp:rts", true, 0),
            new Variant("uid", "hostname:uid, eventType:uid, timestamp:ts", "hex(4) | timestamp:dec, hostname:text",
                    true, 0),
            new Variant("columns", "hostname:text, eventType:text, timestamp:ts", LogEventRows.DEFAULT_INDEX_LAYOUT,
                    false, 60));

    private GoldenLogRows() {
    }

    /**
     * Deterministic events over three hours: 23 hosts, 7 types, severities or none, zero to three
     * attributes (one with a dot in its name), some events sharing a millisecond and a host.
     */
    static List<LogEvent> generate() {
        SplittableRandom random = new SplittableRandom(20261123L);
        String[] types = {"http.request", "http.error", "auth.login", "auth.failure", "gc.pause", "disk.usage",
                "deploy.finished"};
        long start = 1_795_000_000_000L;
        List<LogEvent> events = new ArrayList<>(EVENT_COUNT);
        for (int i = 0; i < EVENT_COUNT; i++) {
            Map<String, String> attributes = new LinkedHashMap<>();
            int count = random.nextInt(4);
            if (count > 0) {
                attributes.put("pid", Integer.toString(1000 + random.nextInt(30000)));
            }
            if (count > 1) {
                attributes.put("status", Integer.toString(200 + 100 * random.nextInt(4)));
            }
            if (count > 2) {
                attributes.put("trace.id", Long.toHexString(random.nextLong()));
            }
            int severity = random.nextInt(Severity.values().length + 1);
            events.add(LogEvent.newBuilder()
                    .setHostname(String.format("%s-%02d.example.com", i % 3 == 0 ? "web" : "db", random.nextInt(23)))
                    .setTimestamp(Instant.ofEpochMilli(start + random.nextLong(3 * 3_600_000L)))
                    .setEventType(types[random.nextInt(types.length)])
                    .setMessage(random.nextInt(50) == 0 ? "" : "message " + i + " \u00e9t\u00e9 \u2713")
                    .setSeverity(severity == Severity.values().length ? null : Severity.values()[severity])
                    .setAttributes(attributes)
                    .build());
        }
        return events;
    }

    /** Ids in first-seen order per kind, as the UID table assigns them to a fresh table. */
    static UidResolver uids() {
        Map<String, Long> ids = new ConcurrentHashMap<>();
        AtomicLong next = new AtomicLong(1);
        return new UidResolver() {
            @Override
            public long idOf(String kind, String name) {
                return ids.computeIfAbsent(kind + "\0" + name, k -> next.getAndIncrement());
            }

            @Override
            public Optional<String> nameOf(String kind, long id) {
                return Optional.empty();
            }
        };
    }

    public static String line(String variant, Row row) {
        StringBuilder s = new StringBuilder(variant).append(' ').append(row.table()).append(' ')
                .append(HEX.formatHex(row.key())).append(' ').append(row.timestamp());
        // HBase stores a row's cells sorted by family and qualifier: the order within a Put is not written.
        List<Cell> cells = new ArrayList<>(row.cells());
        cells.sort((a, b) -> {
            int c = java.util.Arrays.compareUnsigned(a.family(), b.family());
            return c != 0 ? c : java.util.Arrays.compareUnsigned(a.qualifier(), b.qualifier());
        });
        for (Cell cell : cells) {
            s.append(' ').append(HEX.formatHex(cell.family())).append(':').append(HEX.formatHex(cell.qualifier()))
                    .append('=').append(HEX.formatHex(cell.value()));
        }
        return s.toString();
    }

    public static String line(String variant, Counter counter) {
        return variant + ' ' + counter.table() + ' ' + HEX.formatHex(counter.row()) + ' '
                + HEX.formatHex(counter.family()) + ':' + HEX.formatHex(counter.qualifier()) + '+' + counter.amount();
    }

    private static final HexFormat HEX = HexFormat.of();

    /** The recorded events, in order. */
    public static List<byte[]> events() {
        List<byte[]> events = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(resource(EVENTS), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                events.add(Base64.getDecoder().decode(line));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return events;
    }

    /** The recorded row and counter lines, in order. */
    public static List<String> rows() {
        List<String> rows = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(resource(ROWS)),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                rows.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    private static java.io.InputStream resource(String name) {
        java.io.InputStream in = GoldenLogRows.class.getResourceAsStream("/golden/" + name);
        if (in == null) {
            throw new IllegalStateException("golden fixture /golden/" + name + " is missing from the test classpath");
        }
        return in;
    }

    /**
     * What the hand-written log keying made of the events: the recorder of the fixture, kept so
     * the fixture's provenance can be read.
     */
    static List<String> recordedRows(List<LogEvent> events) {
        List<String> lines = new ArrayList<>();
        LogSummary summary = new LogSummary();
        for (Variant variant : VARIANTS) {
            UidResolver uids = uids();
            LogEventRows rows = new LogEventRows(
                    dev.rowflow.keying.layout.RowKeyLayout.parse(variant.dataLayout(), uids),
                    dev.rowflow.keying.layout.RowKeyLayout.parse(variant.indexLayout(), uids), variant.index(),
                    variant.bucketSeconds() * 1000L);
            for (LogEvent event : events) {
                for (Row row : rows.rowsOf(event)) {
                    lines.add(line(variant.name(), row));
                }
                if (variant.name().equals("default")) {
                    lines.add(line(variant.name(), summary.counterOf(event)));
                }
            }
        }
        return lines;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        // The rows are made of the events as the pipeline sees them: decoded from their bytes (a
        // decoded map iterates in another order than the generator's, and rows as columns keep the
        // re-encoded event).
        List<LogEvent> events = new ArrayList<>();
        try (BufferedWriter out = Files.newBufferedWriter(dir.resolve(EVENTS))) {
            for (LogEvent event : generate()) {
                ByteBuffer bytes = LogEvent.getEncoder().encode(event);
                byte[] array = new byte[bytes.remaining()];
                bytes.get(array);
                out.write(Base64.getEncoder().encodeToString(array));
                out.newLine();
                events.add(dev.rowflow.keying.EventSchemas.logEvents().decode(array));
            }
        }
        try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
                new GZIPOutputStream(Files.newOutputStream(dir.resolve(ROWS))), StandardCharsets.UTF_8))) {
            for (String line : recordedRows(events)) {
                out.write(line);
                out.newLine();
            }
        }
    }
}
