/**
 * JMH benchmarks of the hot code: key encoding and the JSON mapping. Built only in the
 * {@code bench} profile ({@code mvn -Pbench -pl benchmarks -am package}, then
 * {@code java -jar benchmarks/target/benchmarks.jar}); never part of {@code mvn verify} or of the
 * production jar. Figures and commands are in {@code docs/performance.md}.
 */
package dev.rowflow.benchmarks;
