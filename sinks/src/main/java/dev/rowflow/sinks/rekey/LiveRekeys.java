package dev.rowflow.sinks.rekey;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.mapping.KeyTranslation;
import dev.rowflow.sinks.hbase.TableDefinition;

import java.util.Arrays;
import java.util.Map;

/**
 * The tables being re-keyed while the pipeline runs, as the sinks write them: for a table role
 * with a {@link Target}, each row is also written -- or, once switched, only written -- to the
 * new table under its translated key, with the same cells at the same timestamp. One instance per
 * running pipeline, shared by every stream thread's sink; replaced whole when the re-keys recorded
 * in {@value RekeyCheckpoints#TABLE} change, so a write reads it once without a lock.
 */
public final class LiveRekeys {
    /**
     * Where a table's rows also go.
     *
     * @param role        the role the new table is written under (its own writer in each sink)
     * @param table       the new table
     * @param translation from the table's layout to the new table's
     * @param switched    whether the new table has taken over: the old table is no longer written
     */
    public record Target(TableRole role, TableDefinition table, KeyTranslation translation, boolean switched) {
        /**
         * {@code row} under its key in the new table.
         *
         * @throws IllegalArgumentException if the row lacks a cell the new key needs (the record is
         *                                  then set aside, not written to either table)
         */
        public Row rekeyed(Row row) {
            byte[] key = translation.translate(row.key(), row.timestamp(), (family, qualifier) -> {
                byte[] f = family.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                byte[] q = qualifier.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                for (Cell cell : row.cells()) {
                    if (Arrays.equals(cell.family(), f) && Arrays.equals(cell.qualifier(), q)) {
                        return cell.value();
                    }
                }
                return null;
            });
            return new Row(role, key, row.timestamp(), row.cells(), row.ttlMillis());
        }
    }

    private volatile Map<TableRole, Target> targets = Map.of();

    /** Re-keys of nothing until {@link #set}. */
    public static LiveRekeys none() {
        return new LiveRekeys();
    }

    /** The target of the rows of {@code table}, or null. */
    public Target of(TableRole table) {
        return targets.get(table);
    }

    /** Whether any table is being re-keyed. */
    public boolean any() {
        return !targets.isEmpty();
    }

    /** Replaces the targets by table role. */
    public void set(Map<TableRole, Target> targets) {
        this.targets = Map.copyOf(targets);
    }

    public Map<TableRole, Target> targets() {
        return targets;
    }
}
