package dev.rowflow.pipeline.ingest;

import dev.rowflow.keying.TableRole;
import dev.rowflow.sinks.hbase.TableDefinition;

/**
 * A table an {@link Ingest} writes.
 *
 * @param role       the table's role in the rows the ingest makes
 * @param definition name, family, family settings and key layout
 * @param tableKey   the configuration key naming the table
 * @param layoutKey  the configuration key whose value decides its row keys (a refusal of the
 *                   layout recorded in an existing table names it)
 */
public record IngestTable(TableRole role, TableDefinition definition, String tableKey, String layoutKey) {
}
