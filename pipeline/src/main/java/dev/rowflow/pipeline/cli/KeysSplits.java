package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.RowKeyLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code rowflow keys splits}: the region split points of a layout. */
@Command(name = "splits", mixinStandardHelpOptions = true,
        description = {"Print the region split points of a layout, one per line.",
                "Layouts led by a salt or an md5 part split evenly; any other layout needs --samples: a file of "
                        + "field values, one key per line as for `encode --stdin`, split at their quantiles."})
final class KeysSplits extends KeyValuesCommand {
    @Option(names = {"-r", "--regions"}, paramLabel = "N",
            description = "Regions to split into (default: the pre-split rowflow creates its tables with; with "
                    + "--samples 16).")
    Integer regions;

    @Option(names = "--samples", paramLabel = "FILE",
            description = "Field values of typical keys (e.g. one line per known host), to split at their quantiles.")
    Path samples;

    @Override
    public Integer call() throws Exception {
        try {
            RowKeyLayout layout = source.resolve(samples != null);
            List<byte[]> splits;
            try {
                splits = samples != null ? RowKeyLayout.splitPoints(regions == null ? 16 : regions, sampleKeys(layout))
                        : regions == null ? evenDefault(layout) : layout.splitPoints(regions);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            splits.forEach(split -> out.println(format.print(split)));
            return 0;
        } finally {
            source.close();
        }
    }

    private List<byte[]> evenDefault(RowKeyLayout layout) {
        if (!layout.spreadByDesign()) {
            throw usage("layout " + layout.spec() + " leads with " + layout.parts().get(0).spec()
                    + ", whose bytes are not spread by design: give --samples FILE (field values of typical keys) "
                    + "to split at their quantiles");
        }
        return layout.defaultSplitPoints();
    }

    private List<byte[]> sampleKeys(RowKeyLayout layout) throws IOException {
        List<byte[]> keys = new ArrayList<>();
        int number = 0;
        try (BufferedReader in = Files.newBufferedReader(samples, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                number++;
                if (!line.isBlank() && !line.startsWith("#")) {
                    keys.add(encode(layout, words(line), samples + " line " + number + ": "));
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw usage("--samples " + samples + ": no such file");
        }
        return keys;
    }
}
