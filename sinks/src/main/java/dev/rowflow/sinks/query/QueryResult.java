package dev.rowflow.sinks.query;

import java.util.List;

/**
 * What a query found, in its order, and what it cost.
 *
 * @param rows              the rows, in the query's documented order
 * @param scans             scans run (one per salt bucket of a fanned-out range)
 * @param danglingIndexRows index rows whose data row is missing: skipped and counted (a repair for
 *                          {@code rowflow index verify/backfill})
 */
public record QueryResult<T>(List<T> rows, int scans, long danglingIndexRows) {
}
