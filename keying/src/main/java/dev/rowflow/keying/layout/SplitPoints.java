package dev.rowflow.keying.layout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Where a table of a {@link RowKeyLayout} is pre-split: region boundaries that give every region
 * keys. A salt gives its own (see {@link Salt}); an unsalted layout that leads with an evenly
 * spread part (a digest) splits evenly over that part's first two bytes; any other layout's
 * leading bytes are not spread by design, and it splits at the quantiles of sample keys or, left
 * alone, by size as it grows.
 */
final class SplitPoints {
    /** Regions of a new table whose layout leads with a digest part and has no salt. */
    private static final int DIGEST_REGIONS = 16;
    /** Bytes of a leading digest part the boundaries fall in: up to 65536 regions. */
    private static final int DIGEST_SPLIT_WIDTH = 2;

    private SplitPoints() {
    }

    /** See {@link RowKeyLayout#defaultSplitPoints()}. */
    static List<byte[]> byDefault(RowKeyLayout layout) {
        int regions = layout.salt().defaultRegions();
        if (regions == 0 && leadsWithSpreadPart(layout)) {
            regions = DIGEST_REGIONS;
        }
        return regions == 0 ? List.of() : even(layout, regions);
    }

    /** See {@link RowKeyLayout#splitPoints(int)}. */
    static List<byte[]> even(RowKeyLayout layout, int regions) {
        if (regions < 1) {
            throw new IllegalArgumentException("regions must be >= 1, got " + regions);
        }
        return layout.salt().splitPoints(regions).orElseGet(() -> {
            KeyPart lead = layout.parts().get(0);
            if (!lead.encoding().evenlySpread()) {
                throw new IllegalArgumentException("layout " + layout.spec() + " leads with " + lead.spec()
                        + ", whose bytes are not spread by design: split from sample keys instead");
            }
            return SaltPrefixes.evenSplits(regions, DIGEST_SPLIT_WIDTH, lead.encoding().token());
        });
    }

    /** See {@link RowKeyLayout#spreadByDesign()}. */
    static boolean spreadByDesign(RowKeyLayout layout) {
        return layout.salt().width() > 0 || leadsWithSpreadPart(layout); // every salt is there to spread keys
    }

    private static boolean leadsWithSpreadPart(RowKeyLayout layout) {
        return layout.parts().get(0).encoding().evenlySpread();
    }

    /** See {@link RowKeyLayout#splitPoints(int, Collection)}. */
    static List<byte[]> fromSamples(int regions, Collection<byte[]> sampleKeys) {
        List<byte[]> sorted = new ArrayList<>(sampleKeys);
        sorted.sort(Arrays::compareUnsigned);
        List<byte[]> distinct = new ArrayList<>();
        for (byte[] key : sorted) {
            if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), key)) {
                distinct.add(key);
            }
        }
        if (regions < 1 || regions > distinct.size()) {
            throw new IllegalArgumentException(regions + " regions need at least as many distinct sample keys, got "
                    + distinct.size());
        }
        List<byte[]> splits = new ArrayList<>();
        for (int i = 1; i < regions; i++) {
            splits.add(distinct.get((int) ((long) i * distinct.size() / regions)));
        }
        return splits;
    }
}
