package dev.rowflow.keying;

/**
 * The tables a row can be meant for. Keying names the role; the sink's configuration maps each
 * role to a concrete table name.
 */
public enum TableRole {
    /** Log events, one row per event (seed 002, case study "Log Data and Timeseries Data"). */
    LOG_DATA,
    /** Dual-written secondary index over {@link #LOG_DATA} (seed 002, section 1.9.3). */
    LOG_INDEX
}
