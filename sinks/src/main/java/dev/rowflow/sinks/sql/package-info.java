/**
 * SQL over the tables rowflow writes: each table's Apache Phoenix view, from the key layout the
 * table records and the cells its mappings write ({@link dev.rowflow.sinks.sql.PhoenixView}, the
 * types in {@link dev.rowflow.sinks.sql.PhoenixTypes}), and the views Phoenix already has
 * ({@link dev.rowflow.sinks.sql.PhoenixCatalog}). Phoenix itself is no dependency: its DDL is text,
 * proven by the tests of module {@code phoenix}.
 */
package dev.rowflow.sinks.sql;
