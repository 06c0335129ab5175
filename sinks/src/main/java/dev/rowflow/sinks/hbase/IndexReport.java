package dev.rowflow.sinks.hbase;

import java.util.List;

/**
 * What an index verification found.
 *
 * @param dataRows  rows scanned in the data table
 * @param indexRows rows scanned in the index table
 * @param unindexed data rows without their index row (or whose index row points elsewhere)
 * @param dangling  index rows whose data row is missing, or would be indexed under another key
 * @param withoutKey data rows without a value for a part of a sparse index's key: no index row, by design
 * @param examples  a few of the problems, keys in the HBase shell's form
 */
public record IndexReport(long dataRows, long indexRows, long unindexed, long dangling, long withoutKey,
                          List<String> examples) {

    public boolean clean() {
        return unindexed == 0 && dangling == 0;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder()
                .append("data rows ").append(dataRows).append(", index rows ").append(indexRows)
                .append(", unindexed data rows ").append(unindexed).append(", dangling index rows ").append(dangling)
                .append(withoutKey > 0 ? ", data rows without an index key (sparse) " + withoutKey : "")
                .append(clean() ? " -- clean" : " -- NOT clean").append('\n');
        examples.forEach(e -> out.append("  ").append(e).append('\n'));
        return out.toString();
    }
}
