package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * Reads the counters rowflow's sink keeps exactly once (see {@link IdempotentCounters}), in
 * either of their two layouts:
 * <ul>
 *   <li>HBase: the counter's own cell, {@code family:qualifier}, an 8-byte long kept by
 *       {@code Increment};</li>
 *   <li>stores without an increment inside a conditional mutation (Bigtable): one 8-byte long per
 *       source, {@code family:<qualifier>@<source>} (e.g. {@code s:n@logs-3}), whose sum is the
 *       counter.</li>
 * </ul>
 * DO NOT modify the qualifier format: it is on disk.
 */
public final class CounterCells {
    private static final byte SOURCE_SEPARATOR = '@';

    private CounterCells() {
    }

    /** The qualifier of {@code source}'s share of the counter {@code qualifier}. */
    static byte[] sourceQualifier(byte[] qualifier, String source) {
        return Bytes.add(qualifier, new byte[] {SOURCE_SEPARATOR}, source.getBytes(StandardCharsets.UTF_8));
    }

    /** The counter's value in {@code row}, whichever layout holds it; 0 if the row has none. */
    public static long total(Result row, byte[] family, byte[] qualifier) {
        long total = 0;
        byte[] prefix = Bytes.add(qualifier, new byte[] {SOURCE_SEPARATOR});
        for (Cell cell : row.rawCells()) {
            if (!CellUtil.matchingFamily(cell, family)) {
                continue;
            }
            byte[] q = CellUtil.cloneQualifier(cell);
            if (Bytes.equals(q, qualifier) || Bytes.startsWith(q, prefix)) {
                total += Bytes.toLong(CellUtil.cloneValue(cell));
            }
        }
        return total;
    }
}
