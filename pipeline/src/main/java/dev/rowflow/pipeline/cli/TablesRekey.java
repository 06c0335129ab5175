package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.KeyTranslation;
import dev.rowflow.keying.mapping.StoredColumns;
import dev.rowflow.pipeline.ingest.DeclaredInput;
import dev.rowflow.pipeline.ingest.IngestTable;
import dev.rowflow.pipeline.ingest.PipelinePlan;
import dev.rowflow.pipeline.runtime.TableSplits;
import dev.rowflow.sinks.hbase.TableAdmin;
import dev.rowflow.sinks.hbase.TableDefinition;
import dev.rowflow.sinks.rekey.RekeyCheckpoints;
import dev.rowflow.sinks.rekey.RekeyCopy;
import dev.rowflow.sinks.rekey.RekeyVerification;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code rowflow tables rekey}: a copy of an input's data table under another key layout, verified. */
@Command(name = "rekey", mixinStandardHelpOptions = true,
        description = {"Move an input's data table to a new table keyed with another layout (more salt buckets, a "
                + "host-led key instead of a time-led one) while the pipeline writes on: each row's key decoded with "
                + "the layout the table records and encoded with the new one, its cells as they are. The new table is "
                + "created pre-split for the new layout; the running pipelines write both tables from then on (each "
                + "confirms before the copy begins); the copy reads the old table's regions in parallel, prints its "
                + "progress on stderr and, run again after a kill, resumes where it stopped; every key range is "
                + "verified (rows and a checksum over decoded fields and cells, both ways); then the pipelines "
                + "switch to the new table. Exit 0 when switched, 1 when the copy does not verify.",
                "A layout the rows cannot fill (a field neither their key nor a column keeps, or their records lack) "
                        + "is refused before anything is written (exit 2). The old table is left as it is."})
final class TablesRekey extends HBaseCommand {
    @Option(names = "--input", required = true, paramLabel = "NAME",
            description = "The input whose data table to re-key (logs for the log pipeline).")
    String input;

    @Option(names = "--layout", required = true, paramLabel = "LAYOUT",
            description = "The new key layout, e.g. \"bucket(32) | timestamp:ts, hostname:text, eventType:text\".")
    String layout;

    @Option(names = "--to", paramLabel = "TABLE", description = "The new table (default: the old name with _v2, or the next free _vN).")
    String to;

    @Option(names = "--confirm-seconds", paramLabel = "S", defaultValue = "120",
            description = "How long to wait for every running instance to confirm it writes both tables (default ${DEFAULT-VALUE}).")
    int confirmSeconds;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4",
            description = "Key ranges copied and verified at once (default ${DEFAULT-VALUE}).")
    int threads;

    /** It moves the configured table: it reads the table the configuration names, switched or not. */
    @Override
    boolean followsRekeys() {
        return false;
    }

    @Override
    int run(PipelinePlan plan, UidResolver uids, Connection connection, PrintWriter out) throws Exception {
        DeclaredInput declared = declaredInput(plan, "--input", input);
        EventMapping mapping = declared.mapping();
        if (mapping.spec().timeBucketMillis() > 0 || StoredColumns.keysRunOn(mapping, mapping.spec().dataTable())) {
            throw new ParameterException(spec.commandLine(), "--input " + input + ": its data table holds rows of "
                    + "several kinds (rows as columns, or element rows under their record's key); only a table of one "
                    + "row kind is re-keyed");
        }
        if (declared.deletes()) {
            throw new ParameterException(spec.commandLine(), "--input " + input + ": it deletes rows (change events, "
                    + "tombstones): its deletes and replaced rows are not written to a second table, so it is not re-keyed");
        }
        IngestTable table = plan.table(mapping.spec().dataTable());
        TableName source = table.definition().name();
        try (Admin hbase = connection.getAdmin()) {
            TableAdmin admin = new TableAdmin(hbase);
            RowKeyLayout old = RowKeyLayout.parse(admin.layoutOf(source).orElseThrow(() -> new ParameterException(
                    spec.commandLine(), "--input " + input + ": table " + source + " does not exist or records no key layout")), uids);
            RowKeyLayout target = parsed(uids);
            KeyTranslation forward;
            KeyTranslation back;
            try {
                declared.checkKeyLayout(target);
                Map<String, KeyTranslation.FieldCell> cells = StoredColumns.fieldCells(mapping);
                forward = KeyTranslation.of(old, target, cells, mapping.spec().timePath());
                back = KeyTranslation.of(target, old, cells, mapping.spec().timePath());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--layout " + layout + ": " + e.getMessage());
            }
            TableName into = TableName.valueOf(to != null ? to : nextName(admin, source, target));
            out.printf("re-keying %s (%s)%n     into %s (%s)%n", source, old.spec(), into, target.spec());
            forward.steps().forEach(step -> out.println("  " + step));
            TableDefinition definition = new TableDefinition(into, table.definition().family(),
                    table.definition().settings(), target);
            boolean created = admin.createOrCheck(definition, splits(connection, source, forward, target));
            out.printf("%s %s, %d regions%n", created ? "created" : "resuming into", into, admin.regionCount(into));
            out.flush();

            PrintWriter err = spec.commandLine().getErr();
            long since;
            try (RekeyCheckpoints checkpoints = RekeyCheckpoints.open(connection, source, into)) {
                if (checkpoints.state().isEmpty()) {
                    checkpoints.state(RekeyCheckpoints.State.BOTH, System.currentTimeMillis(), target.spec());
                }
                since = checkpoints.since().orElseThrow();
                if (checkpoints.state().get() == RekeyCheckpoints.State.BOTH) {
                    RekeyConfirmations.await(plan.config(), checkpoints, java.time.Duration.ofSeconds(confirmSeconds), err);
                }
            }
            out.printf("the running pipelines write both tables since %s%n", java.time.Instant.ofEpochMilli(since));
            out.flush();
            // A bar redrawn in place on a terminal, a line a second otherwise (a log keeps each).
            String end = System.console() != null ? "\r" : "\n";
            RekeyCopy.Copied copied = new RekeyCopy(connection, source, into, forward, threads).run(progress -> {
                err.print(bar(progress) + end);
                err.flush();
            });
            if (end.equals("\r")) {
                err.println();
            }
            out.printf("copied %d rows in %d ranges%s%n", copied.rows(), copied.ranges(),
                    copied.unkeyable() == 0 ? "" : "; " + copied.unkeyable() + " rows could not be keyed: "
                            + String.join("; ", copied.firstUnkeyable()));
            List<RekeyCheckpoints.Range> ranges;
            try (RekeyCheckpoints checkpoints = RekeyCheckpoints.open(connection, source, into)) {
                ranges = new RekeyCopy(connection, source, into, forward, threads).ranges(checkpoints);
            }
            RekeyVerification.Report report = RekeyVerification.verify(connection, source, into, forward, back, ranges,
                    threads);
            out.printf("verified: %d rows in %s, %d in %s; %d of %d ranges match%n", report.sourceRows(), source,
                    report.targetRows(), into, report.ranges().stream().filter(RekeyVerification.RangeCheck::matches).count(),
                    report.ranges().size());
            for (RekeyVerification.RangeCheck check : report.ranges()) {
                if (!check.matches()) {
                    out.printf("  range [%s, %s): %d rows in %s, %d of them in %s as they are%n",
                            Bytes.toStringBinary(check.range().start()), Bytes.toStringBinary(check.range().end()),
                            check.sourceRows(), source, check.equalRows(), into);
                }
            }
            if (report.strays() > 0) {
                out.printf("  %d rows of %s do not translate back: %s%n", report.strays(), into,
                        String.join("; ", report.firstStrays()));
            }
            if (!report.ok()) {
                return ErrorMessages.NO;
            }
            try (RekeyCheckpoints checkpoints = RekeyCheckpoints.open(connection, source, into)) {
                if (checkpoints.state().orElseThrow() != RekeyCheckpoints.State.SWITCHED) {
                    checkpoints.state(RekeyCheckpoints.State.SWITCHED, since, target.spec());
                }
            }
            out.printf("switched: the running pipelines write %s only (within %d s); %s is left as it is, drop it when "
                    + "you no longer need it%n", into, 10, source);
            out.printf("next: point the input at it (input.%s.table=%s, input.%s.key=%s) and roll out%n", input, into,
                    input, target.spec());
            return 0;
        }
    }

    /** {@code copy [######----------]  6/16 ranges, 18,211 rows}. */
    static String bar(RekeyCopy.Progress progress) {
        int width = 20;
        int filled = progress.ranges() == 0 ? width : width * progress.rangesDone() / progress.ranges();
        return String.format(java.util.Locale.ROOT, "copy [%s%s] %2d/%d ranges, %,d rows", "#".repeat(filled),
                "-".repeat(width - filled), progress.rangesDone(), progress.ranges(), progress.rows());
    }

    private RowKeyLayout parsed(UidResolver uids) {
        try {
            return RowKeyLayout.parse(layout, uids);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--layout " + layout + ": " + e.getMessage());
        }
    }

    /**
     * {@code <table>_v2}, or the first {@code _vN} that does not exist or records {@code target} (a
     * copy begun before, resumed).
     */
    private static String nextName(TableAdmin admin, TableName source, RowKeyLayout target) throws java.io.IOException {
        String base = source.getNameAsString().replaceFirst("_v\\d+$", "");
        for (int n = 2; ; n++) {
            String name = base + "_v" + n;
            if (name.equals(source.getNameAsString())) {
                continue;
            }
            java.util.Optional<String> recorded = admin.layoutOf(TableName.valueOf(name));
            if (!admin.exists(TableName.valueOf(name)) || recorded.isPresent() && recorded.get().equals(target.spec())) {
                return name;
            }
        }
    }

    /**
     * Where the new table is split: the layout's own points where its keys spread by design (a salt,
     * a leading digest), else the quantiles of the new keys of a sample of the old table's rows
     * (the first rows of each of its regions).
     */
    private static List<byte[]> splits(Connection connection, TableName source, KeyTranslation forward,
                                       RowKeyLayout target) throws java.io.IOException {
        if (target.spreadByDesign()) {
            return target.defaultSplitPoints();
        }
        List<byte[]> sample = new ArrayList<>();
        try (var regions = connection.getRegionLocator(source); Table t = connection.getTable(source)) {
            var locations = regions.getAllRegionLocations();
            int perRegion = Math.max(1, 10_000 / locations.size());
            for (var region : locations) {
                Scan scan = new Scan().withStartRow(region.getRegion().getStartKey()).withStopRow(region.getRegion()
                        .getEndKey()).setLimit(perRegion).setCaching(Math.min(perRegion, 1000));
                try (ResultScanner rows = t.getScanner(scan)) {
                    for (Result row : rows) {
                        try {
                            sample.add(RekeyCopy.translate(forward, row));
                        } catch (IllegalArgumentException unkeyable) {
                            // counted by the copy
                        }
                    }
                }
            }
        }
        return TableSplits.fromSample(16, sample);
    }
}
