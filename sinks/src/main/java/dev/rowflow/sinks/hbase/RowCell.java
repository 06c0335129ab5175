package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.IndividualBytesFieldCell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A cell of a row's Put over the row's own arrays (nothing copied on the stream thread) that writes
 * itself into a request's cell block in one piece.
 *
 * <p>HBase's client encodes the cells of a multi request on its RPC event loop, each as a KeyValue:
 * {@code key length (int), value length (int), row length (short), row, family length (byte),
 * family, qualifier, timestamp (long), type (byte), value}. A {@link KeyValue} already holds those
 * bytes and writes them at once; any other cell is written field by field
 * ({@code ExtendedCell.write}), its lengths and timestamp one byte at a time -- about 20
 * bounds-checked calls into the event loop's buffer per cell, which made the sink's event loop
 * spend a third more than the raw client's on the same rows. This cell lays its KeyValue bytes out
 * in a buffer of the writing thread and writes them with one call; a cell larger than
 * {@link #MAX_SCRATCH_BYTES} is written field by field as before (its value dwarfs the fields).
 */
final class RowCell extends IndividualBytesFieldCell {
    /** The largest cell laid out in the writing thread's buffer, which stays that large. */
    static final int MAX_SCRATCH_BYTES = 64 * 1024;
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1024]);

    RowCell(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value) {
        super(row, family, qualifier, timestamp, KeyValue.Type.Put, value);
    }

    @Override
    public int write(OutputStream out, boolean withTags) throws IOException {
        int size = getSerializedSize(withTags);
        if (size > MAX_SCRATCH_BYTES) {
            return super.write(out, withTags);
        }
        byte[] scratch = SCRATCH.get();
        if (scratch.length < size) {
            scratch = new byte[Math.max(size, 2 * scratch.length)];
            SCRATCH.set(scratch);
        }
        KeyValueUtil.appendToByteArray(this, scratch, 0, withTags);
        out.write(scratch, 0, size);
        return size;
    }
}
