package dev.rowflow.keying.layout;

/** One part of a composite key: the event field it comes from and how it is encoded. */
public record KeyPart(String field, KeyEncoding encoding) {
    /** The spec form, e.g. {@code hostname:text}. */
    public String spec() {
        return field + ":" + encoding.token();
    }
}
