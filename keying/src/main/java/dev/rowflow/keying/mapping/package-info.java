/**
 * Declared mappings: a {@link dev.rowflow.keying.mapping.MappingSpec} (time path and formats, key
 * layouts, columns, indexes, summary) compiled by {@link dev.rowflow.keying.mapping.EventMapping} into
 * the rows and counters of one record, read as a tree ({@link dev.rowflow.keying.mapping.RecordTree})
 * through field paths ({@link dev.rowflow.keying.mapping.FieldPath}).
 *
 * <p>Contracts: compiling refuses a mapping with a {@link dev.rowflow.keying.mapping.MappingException}
 * whose piece names what is at fault; applying it refuses a record with an {@code
 * InvalidEventException} whose message is the dead-letter reason. Rows are functions of the record
 * (and its Kafka timestamp where the mapping says so): a replay writes the same cells.
 */
package dev.rowflow.keying.mapping;
