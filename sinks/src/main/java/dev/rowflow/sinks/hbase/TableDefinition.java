package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.hadoop.hbase.TableName;

/**
 * A table as rowflow wants it: name, its one family and that family's settings, and the row key
 * layout its rows are written with (recorded in the table descriptor, see {@link TableAdmin}).
 */
public record TableDefinition(TableName name, byte[] family, FamilySettings settings, RowKeyLayout layout) {
}
