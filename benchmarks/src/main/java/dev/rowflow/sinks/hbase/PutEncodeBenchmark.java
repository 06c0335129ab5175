package dev.rowflow.sinks.hbase;

import dev.rowflow.benchmarks.JsonMappingBenchmark;
import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import org.apache.hadoop.hbase.CellBuilder;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellScannable;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.codec.KeyValueCodec;
import org.apache.hadoop.hbase.CellScanner;
import org.apache.hadoop.hbase.codec.Codec;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.hbase.thirdparty.io.netty.buffer.ByteBufOutputStream;
import org.apache.hbase.thirdparty.io.netty.buffer.PooledByteBufAllocator;
import org.apache.hbase.thirdparty.io.netty.buffer.Unpooled;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the HBase client spends on a row between the sink and the wire, on one thread: the row's
 * Put built, then its cells encoded into a request's cell block as the client's RPC event loop does
 * (its {@code CellBlockBuilder}: the {@link KeyValueCodec}'s encoder over a pooled netty buffer of
 * 16 KB to start with), for
 * batches of {@value #ROWS} rows of the Filebeat events of {@link JsonMappingBenchmark} (a data row
 * of 19 cells and an index row per event). In this package because {@link TableWriter#toPut} is
 * package-private.
 *
 * <p>{@code cells}: {@code rowCell} is the sink's Put ({@link TableWriter#toPut}: {@link RowCell}s
 * over the row's arrays); {@code shallowCopyBuilder} the same Put with HBase's shallow-copy cell
 * builder's cells, written field by field; {@code addColumn} a plain {@code Put.addColumn} per cell
 * (a KeyValue copy of each, what a hand-written client does). Average time per batch: microseconds
 * per {@value #ROWS} rows, i.e. nanoseconds per row. Run with {@code -prof gc} for bytes per row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class PutEncodeBenchmark {
    static final int ROWS = 1000;

    @Param({"rowCell", "shallowCopyBuilder", "addColumn"})
    public String cells;

    /**
     * {@code pooled}: every cell block a pooled buffer, one class of buffer at every call into it.
     * {@code sometimesWrapped}: one block in 128 wrapped in another buffer class, as netty's leak
     * detector wraps the buffers it samples on a client's event loop: the JIT then meets two.
     */
    @Param({"pooled", "sometimesWrapped"})
    public String blocks;
    private int batches;

    private final KeyValueCodec codec = new KeyValueCodec();
    private final PooledByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final CellBuilder shallow = CellBuilderFactory.create(CellBuilderType.SHALLOW_COPY);
    private Row[] rows;
    private int next;

    @Setup
    public void setUp() {
        JsonMappingBenchmark events = new JsonMappingBenchmark();
        events.setUp();
        List<Row> made = new ArrayList<>();
        while (made.size() < 2048) {
            made.addAll(events.rows());
        }
        rows = made.subList(0, 2048).toArray(Row[]::new);
    }

    /** The row's Put as {@code cells} says. */
    private Put put(Row row) throws IOException {
        switch (cells) {
            case "rowCell":
                return TableWriter.toPut(row, 0, TableWriter.estimatedHeapSize(row));
            case "shallowCopyBuilder": {
                org.apache.hadoop.hbase.Cell[] built = new org.apache.hadoop.hbase.Cell[row.cells().size()];
                for (int i = 0; i < built.length; i++) {
                    Cell cell = row.cells().get(i);
                    built[i] = shallow.clear().setRow(row.key()).setFamily(cell.family()).setQualifier(cell.qualifier())
                            .setTimestamp(row.timestamp()).setType(org.apache.hadoop.hbase.Cell.Type.Put)
                            .setValue(cell.value()).build();
                }
                return new TableWriter.SizedPut(row.key(), row.timestamp(), TableWriter.estimatedHeapSize(row), built);
            }
            case "addColumn": {
                Put put = new Put(row.key(), row.timestamp());
                for (Cell cell : row.cells()) {
                    put.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value());
                }
                return put;
            }
            default:
                throw new IllegalArgumentException("cells: " + cells);
        }
    }

    /** {@value #ROWS} rows' Puts built and encoded into one cell block; returns the block's bytes. */
    @Benchmark
    public int putsEncoded() throws IOException {
        List<CellScannable> puts = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            puts.add(put(rows[next++ & (rows.length - 1)]));
        }
        ByteBuf pooled = allocator.buffer(16 * 1024);
        ByteBuf block = blocks.equals("sometimesWrapped") && (batches++ & 127) == 0
                ? Unpooled.unreleasableBuffer(pooled) : pooled;
        try (ByteBufOutputStream out = new ByteBufOutputStream(block)) {
            Codec.Encoder encoder = codec.getEncoder(out);
            CellScanner scanner = CellUtil.createCellScanner(puts);
            while (scanner.advance()) {
                encoder.write(scanner.current());
            }
            encoder.flush();
            return block.readableBytes();
        } finally {
            pooled.release();
        }
    }
}
