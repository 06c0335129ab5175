package dev.rowflow.pipeline.registry;

import dev.rowflow.keying.InvalidEventException;

/**
 * The header every Schema Registry serializer writes before the body, whatever the schema type:
 * byte 0 the magic byte 0, bytes 1-4 the schema id, big-endian.
 */
final class RegistryWireFormat {
    static final byte MAGIC = 0;
    static final int HEADER = 5;

    private RegistryWireFormat() {
    }

    /** Whether {@code bytes} start with the header. */
    static boolean hasHeader(byte[] bytes) {
        return bytes.length >= HEADER && bytes[0] == MAGIC;
    }

    /** The schema id of bytes that have the header. */
    static int id(byte[] bytes) {
        return ((bytes[1] & 0xFF) << 24) | ((bytes[2] & 0xFF) << 16) | ((bytes[3] & 0xFF) << 8) | (bytes[4] & 0xFF);
    }

    /** Why bytes without the header are not a record: too short, or another first byte, named in hex. */
    static InvalidEventException notWireFormat(byte[] bytes) {
        return new InvalidEventException("value", hex(bytes), "is not in the Schema Registry wire format: it "
                + (bytes.length < HEADER ? "has " + bytes.length + " bytes, fewer than the 5 of its header"
                : "starts with 0x" + String.format("%02X", bytes[0] & 0xFF) + " where the magic byte 0 is expected"));
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 16); i++) {
            hex.append(String.format("%02X", bytes[i] & 0xFF));
        }
        return hex + (bytes.length > 16 ? "... (" + bytes.length + " bytes)" : "");
    }
}
