package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.KeyQuery;
import dev.rowflow.keying.layout.KeyRange;
import dev.rowflow.keying.layout.RowKeyLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code rowflow keys scan}: the row ranges a read of a layout's keys covers. */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = {"Print the row ranges that hold exactly the keys whose leading parts equal the given values "
                + "(and whose next part is in [--from, --to)): one line per range, start row and stop row (exclusive), "
                + "(start) and (end) for the table's ends, in the HBase shell's escaping or --format hex.",
                "A salted layout is read once per salt prefix unless the values fix the salt; merge those in key "
                        + "order. A part without byte order (md5) takes no range.",
                "Example: rowflow keys scan --layout 'hostname:text, eventType:text, timestamp:rts' hostname=web-01 "
                        + "eventType=login --from 2013-03-25T00:00:00Z --to 2013-03-26T00:00:00Z"})
final class KeysScan extends KeyValuesCommand {
    @Parameters(paramLabel = "FIELD=VALUE", arity = "0..*",
            description = "Values of the layout's leading parts, in its order. ts/rts values: milliseconds or an "
                    + "ISO-8601 instant. None: the whole table.")
    List<String> values = new ArrayList<>();

    @Option(names = "--from", paramLabel = "VALUE", description = "The next part from this value, inclusive.")
    String from;

    @Option(names = "--to", paramLabel = "VALUE", description = "The next part up to this value, exclusive.")
    String to;

    @Override
    public Integer call() throws Exception {
        try {
            RowKeyLayout layout = source.resolve(true);
            List<KeyPart> parts = layout.parts();
            List<Object> equal = new ArrayList<>();
            for (String word : values) {
                int eq = word.indexOf('=');
                if (eq <= 0) {
                    throw usage("'" + word + "' is not FIELD=VALUE");
                }
                int i = equal.size();
                if (i >= parts.size() || !parts.get(i).field().equals(word.substring(0, eq))) {
                    throw usage("'" + word + "': the values name the leading parts of '" + layout.spec()
                            + "' in order, so value " + (i + 1) + " is for " + (i < parts.size() ? parts.get(i).field()
                            : "no part (the layout has " + parts.size() + ")"));
                }
                equal.add(typed(parts.get(i), word.substring(eq + 1), ""));
            }
            KeyQuery query = KeyQuery.prefix(equal.toArray());
            if (from != null || to != null) {
                if (equal.size() >= parts.size()) {
                    throw usage("--from/--to bound the part after the given values, and the layout has no part after "
                            + parts.get(parts.size() - 1).spec());
                }
                KeyPart next = parts.get(equal.size());
                query = query.between(from == null ? null : typed(next, from, "--from: "),
                        to == null ? null : typed(next, to, "--to: "));
            }
            List<KeyRange> ranges;
            try {
                ranges = layout.scanRanges(query);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            for (KeyRange range : ranges) {
                out.println((range.start().length == 0 ? "(start)" : format.print(range.start())) + " "
                        + (range.stop().length == 0 ? "(end)" : format.print(range.stop())));
            }
            return 0;
        } finally {
            source.close();
        }
    }
}
