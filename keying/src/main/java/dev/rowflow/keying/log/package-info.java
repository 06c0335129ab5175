/**
 * The log tables of seed 002's case study "Log Data and Timeseries Data": {@link
 * dev.rowflow.keying.log.LogMapping} (the preset the {@code logs} input runs, a declared mapping over
 * {@code LogEvent}), {@link dev.rowflow.keying.log.LogEventRows} (its rows for one event, as the log
 * queries and the tools that make events by hand key them), {@link dev.rowflow.keying.log.LogColumns}
 * (families and qualifiers on disk) and {@link dev.rowflow.keying.log.LogSummary} (events per host,
 * type and hour). The golden fixture {@code LogRowsGoldenTest} holds these rows to the byte.
 */
package dev.rowflow.keying.log;
