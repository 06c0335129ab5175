package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.IndividualBytesFieldCell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBufOutputStream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A cell of a row's Put over the row's own arrays (nothing copied on the stream thread) that writes
 * itself into a request's cell block in one pass, not a byte at a time.
 *
 * <p>HBase's client encodes the cells of a multi request on its RPC event loop, each in the
 * KeyValue layout: {@code key length (int), value length (int), row length (short), row, family
 * length (byte), family, qualifier, timestamp (long), type (byte), value} (no tags over RPC). A
 * {@link KeyValue} holds those bytes already and writes them with one call; any other cell is
 * written through the stream field by field ({@code ExtendedCell.write}), its lengths and timestamp
 * one byte at a time -- about 20 bounds-checked calls into the event loop's buffer per cell, which
 * cost more than building the Put. Into the netty buffer of hbase-client's RPC (its shaded
 * {@link ByteBufOutputStream}) this cell makes room for itself once and puts its fields through the
 * buffer's own NIO view of that room, then moves the writer index past them. Not through the
 * {@code ByteBuf}'s {@code writeXxx} calls: each of those checks the capacity and the reference
 * count again, and on the event loop netty's leak detector hands out some buffers wrapped, so the
 * JIT sees two buffer classes there and stops inlining them -- a field at a time through
 * {@code ByteBuf} cost twice the raw client's KeyValue copies in a running client (the event
 * loop's {@code encodeCellsTo}, JFR), where alone in JMH it cost the same. Into a buffer of several
 * NIO buffers (a composite) it writes a field at a time, and into any other stream as HBase writes
 * it.
 */
final class RowCell extends IndividualBytesFieldCell {

    RowCell(byte[] row, byte[] family, byte[] qualifier, long timestamp, byte[] value) {
        super(row, family, qualifier, timestamp, KeyValue.Type.Put, value);
    }

    @Override
    public int write(OutputStream out, boolean withTags) throws IOException {
        if (!(out instanceof ByteBufOutputStream stream)) {
            return super.write(out, withTags);
        }
        // A RowCell has no tags, so with or without them its bytes are the KeyValue layout above.
        int size = getSerializedSize(withTags);
        ByteBuf buffer = stream.buffer();
        buffer.ensureWritable(size);
        int index = buffer.writerIndex();
        if (buffer.nioBufferCount() == 1) {
            // The buffer's own view of [index, index + size): no copy, no allocation. Big-endian, as
            // the layout is (a view's order is the view's, not the ByteBuf's).
            ByteBuffer room = buffer.internalNioBuffer(index, size).order(ByteOrder.BIG_ENDIAN);
            room.putInt(KeyValueUtil.keyLength(this))
                    .putInt(getValueLength())
                    .putShort(getRowLength())
                    .put(getRowArray(), getRowOffset(), getRowLength())
                    .put(getFamilyLength())
                    .put(getFamilyArray(), getFamilyOffset(), getFamilyLength())
                    .put(getQualifierArray(), getQualifierOffset(), getQualifierLength())
                    .putLong(getTimestamp())
                    .put(getTypeByte())
                    .put(getValueArray(), getValueOffset(), getValueLength());
            buffer.writerIndex(index + size);
            return size;
        }
        buffer.writeInt(KeyValueUtil.keyLength(this));
        buffer.writeInt(getValueLength());
        buffer.writeShort(getRowLength());
        buffer.writeBytes(getRowArray(), getRowOffset(), getRowLength());
        buffer.writeByte(getFamilyLength());
        buffer.writeBytes(getFamilyArray(), getFamilyOffset(), getFamilyLength());
        buffer.writeBytes(getQualifierArray(), getQualifierOffset(), getQualifierLength());
        buffer.writeLong(getTimestamp());
        buffer.writeByte(getTypeByte());
        buffer.writeBytes(getValueArray(), getValueOffset(), getValueLength());
        return size;
    }
}
