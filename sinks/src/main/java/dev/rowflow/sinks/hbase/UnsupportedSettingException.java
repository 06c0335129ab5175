package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.TableName;

/** A family setting the configured store cannot honour; rowflow refuses it rather than drop it. */
public final class UnsupportedSettingException extends IllegalArgumentException {
    private final String setting;

    public UnsupportedSettingException(String setting, TableName table, Store store, String value, String why) {
        super(setting + " " + value + " of table " + table + " is not supported by store " + store.token() + ": " + why);
        this.setting = setting;
    }

    /** The setting, e.g. {@code cell TTL}. */
    public String setting() {
        return setting;
    }
}
