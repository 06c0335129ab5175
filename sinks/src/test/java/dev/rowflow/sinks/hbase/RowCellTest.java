package dev.rowflow.sinks.hbase;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.codec.Codec;
import org.apache.hadoop.hbase.codec.KeyValueCodec;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBufOutputStream;
import org.apache.hbase.thirdparty.io.netty.buffer.PooledByteBufAllocator;
import org.apache.hbase.thirdparty.io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link RowCell} is written into a request exactly as the same cell as a {@link KeyValue}: the
 * same bytes through the client's codec, and read back as the same cell.
 */
class RowCellTest {
    private static final byte[] ROW = Bytes.toBytes("\u0007web-01.example.com|login|\u00ff\u00fe");
    private static final byte[] FAMILY = Bytes.toBytes("d");
    private static final long TIME = 1_795_334_400_000L;

    /**
     * Into the netty buffers of the client's RPC -- pooled direct as its event loop allocates them,
     * on the heap, wrapped (as netty's leak detector hands some out) and composite (several NIO
     * buffers: written a field at a time) -- and into any other stream (written as HBase writes a
     * cell that is not a KeyValue).
     */
    @ParameterizedTest
    @ValueSource(strings = {"pooled-direct", "heap", "wrapped", "composite", "stream"})
    void shouldWriteTheBytesOfTheSameKeyValueThroughTheClientsCodec(String into) throws IOException {
        List<RowCell> cells = new ArrayList<>();
        List<KeyValue> keyValues = new ArrayList<>();
        // Narrow and wide, an empty value, and one past the netty buffer's first capacity.
        int[] valueBytes = {12, 0, 3_000, 5, 70_000, 40};
        for (int i = 0; i < valueBytes.length; i++) {
            byte[] qualifier = Bytes.toBytes("q" + i);
            byte[] value = new byte[valueBytes[i]];
            for (int b = 0; b < value.length; b++) {
                value[b] = (byte) (31 * i + b);
            }
            cells.add(new RowCell(ROW, FAMILY, qualifier, TIME + i, value));
            keyValues.add(new KeyValue(ROW, FAMILY, qualifier, TIME + i, KeyValue.Type.Put, value));
        }

        byte[] written = encode(cells, into);

        assertThat(written).isEqualTo(encode(keyValues, "stream"));
        List<Cell> read = decode(written);
        assertThat(read).hasSize(cells.size());
        for (int i = 0; i < read.size(); i++) {
            assertThat(CellComparator.getInstance().compare(read.get(i), keyValues.get(i))).isZero();
            assertThat(CellUtil.cloneValue(read.get(i))).isEqualTo(CellUtil.cloneValue(keyValues.get(i)));
        }
    }

    @Test
    void shouldKeepTheRowsArraysWithoutCopyingThem() {
        byte[] value = Bytes.toBytes("GET /api/orders 200");

        RowCell cell = new RowCell(ROW, FAMILY, Bytes.toBytes("m"), TIME, value);

        assertThat(cell.getRowArray()).isSameAs(ROW);
        assertThat(cell.getValueArray()).isSameAs(value);
        assertThat(cell.getTimestamp()).isEqualTo(TIME);
        assertThat(cell.getType()).isEqualTo(Cell.Type.Put);
    }

    private static byte[] encode(List<? extends Cell> cells, String into) throws IOException {
        ByteBuf buffer = switch (into) {
            case "pooled-direct" -> PooledByteBufAllocator.DEFAULT.directBuffer(1024);
            case "heap" -> Unpooled.buffer(1024);
            case "wrapped" -> Unpooled.unreleasableBuffer(Unpooled.directBuffer(1024));
            // Grown a component at a time: several NIO buffers once the first cells are in.
            case "composite" -> Unpooled.compositeBuffer();
            default -> null;
        };
        boolean nettyBuffer = buffer != null;
        OutputStream out = nettyBuffer ? new ByteBufOutputStream(buffer) : new ByteArrayOutputStream();
        Codec.Encoder encoder = new KeyValueCodec().getEncoder(out);
        for (Cell cell : cells) {
            encoder.write(cell);
        }
        encoder.flush();
        if (!nettyBuffer) {
            return ((ByteArrayOutputStream) out).toByteArray();
        }
        if (into.equals("composite")) {
            assertThat(buffer.nioBufferCount()).as("NIO buffers of the composite").isGreaterThan(1);
        }
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.readBytes(bytes);
        buffer.release();
        return bytes;
    }

    private static List<Cell> decode(byte[] block) throws IOException {
        Codec.Decoder decoder = new KeyValueCodec().getDecoder(new ByteArrayInputStream(block));
        List<Cell> cells = new ArrayList<>();
        while (decoder.advance()) {
            cells.add(decoder.current());
        }
        return cells;
    }
}
