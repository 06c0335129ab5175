package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.IndividualBytesFieldCell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBufOutputStream;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A cell of a row's Put over the row's own arrays (nothing copied on the stream thread) that writes
 * itself into a request's cell block a field at a time, not a byte at a time.
 *
 * <p>HBase's client encodes the cells of a multi request on its RPC event loop, each in the
 * KeyValue layout: {@code key length (int), value length (int), row length (short), row, family
 * length (byte), family, qualifier, timestamp (long), type (byte), value} (no tags over RPC). A
 * {@link KeyValue} holds those bytes already and writes them with one call; any other cell is
 * written through the stream field by field ({@code ExtendedCell.write}), its lengths and timestamp
 * one byte at a time -- about 20 bounds-checked calls into the event loop's buffer per cell, which
 * cost more than building the Put. Into the netty buffer of hbase-client's RPC (its shaded
 * {@link ByteBufOutputStream}) this cell writes each field with one call; into any other stream
 * it is written as HBase writes it.
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
