/**
 * A real Kafka broker and a real HBase mini cluster in this JVM, for tests and {@code rowflow demo}.
 *
 * <p>{@link dev.rowflow.embedded.EmbeddedStack} starts both on loopback ports chosen at start, in
 * a temporary directory that is removed when the stack closes (or the JVM exits). HBase on Java 17
 * needs the JVM flags listed in docs/operations.md (the build passes them to every test JVM, and the
 * launcher's jar manifest carries them).
 */
package dev.rowflow.embedded;
