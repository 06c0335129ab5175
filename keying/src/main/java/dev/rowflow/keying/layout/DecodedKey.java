package dev.rowflow.keying.layout;

import java.util.Map;

/**
 * A row key taken apart: the salt ({@link Integer} bucket, or the hex/binary prefix as a hex
 * {@link String}, or null) and each part's value by field name ({@link String}, {@link Long}, or a
 * {@link HashedValue} where only the hash is left).
 */
public record DecodedKey(Object salt, Map<String, Object> fields) {
}
