/**
 * Load for tests, the demo and the benchmarks: deterministic generators of log events and orders,
 * producers that wait until every partition has a leader before they send (KAFKA-15591), the encodings
 * producers really write (single-object Avro, the registry's wire format, older schema versions), and
 * readers of what the tables hold. Never in the production jar.
 */
package dev.rowflow.embedded.load;
