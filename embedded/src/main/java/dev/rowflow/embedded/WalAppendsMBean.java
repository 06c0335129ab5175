package dev.rowflow.embedded;

/** {@link WalAppends} over JMX. */
public interface WalAppendsMBean {
    /** WAL entries appended so far for the tables whose names start with {@code tablePrefix}. */
    long appendsOf(String tablePrefix);
}
