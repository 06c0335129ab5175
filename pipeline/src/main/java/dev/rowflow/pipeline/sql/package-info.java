/**
 * The Phoenix views of the tables a configuration writes ({@code rowflow tables sql}), gathered
 * from its inputs' mappings and the tables HBase has.
 */
package dev.rowflow.pipeline.sql;
