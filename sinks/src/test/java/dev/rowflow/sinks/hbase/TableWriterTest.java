package dev.rowflow.sinks.hbase;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A row's Put: its cells, time and TTL as the row says, and a heap size given once. */
class TableWriterTest {
    private static final byte[] FAMILY = Bytes.toBytes("d");

    private static Row row(int cells, int valueBytes, long ttlMillis) {
        List<Cell> list = new ArrayList<>();
        for (int i = 0; i < cells; i++) {
            list.add(new Cell(FAMILY, Bytes.toBytes("q" + i), new byte[valueBytes]));
        }
        return new Row(TableRole.LOG_DATA, Bytes.toBytes("bucket-07|2026-11-26T08:00:00Z|web-01|login"),
                1_795_334_400_000L, list, ttlMillis);
    }

    @Test
    void shouldMakeAPutOfTheRowsCellsAtItsTimeWithItsTtlAndTheGivenHeapSize() throws Exception {
        Row row = row(3, 40, 86_400_000L);

        Put put = TableWriter.toPut(row, 0, 1_234);

        assertThat(put.getRow()).isEqualTo(row.key());
        assertThat(put.getTTL()).isEqualTo(86_400_000L);
        assertThat(put.heapSize()).isEqualTo(1_234);
        List<org.apache.hadoop.hbase.Cell> cells = put.getFamilyCellMap().get(FAMILY);
        assertThat(cells).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(CellUtil.cloneQualifier(cells.get(i))).isEqualTo(Bytes.toBytes("q" + i));
            assertThat(cells.get(i).getTimestamp()).isEqualTo(row.timestamp());
            assertThat(CellUtil.cloneValue(cells.get(i))).hasSize(40);
        }
        assertThat(TableWriter.toPut(row(1, 1, 0), 3_600_000L, 1).getTTL()).as("the table's cell TTL")
                .isEqualTo(3_600_000L);
    }

    /**
     * What the client reads of a Put to build and encode a request -- its cell count and its cells
     * -- is what its family map holds, over one family or several.
     */
    @Test
    void shouldCountAndScanTheCellsItsFamilyMapHolds() throws Exception {
        Row row = new Row(TableRole.LOG_DATA, Bytes.toBytes("k"), 1_795_334_400_000L, List.of(
                new Cell(Bytes.toBytes("m"), Bytes.toBytes("a"), Bytes.toBytes("1")),
                new Cell(FAMILY, Bytes.toBytes("b"), Bytes.toBytes("2")),
                new Cell(Bytes.toBytes("m"), Bytes.toBytes("c"), Bytes.toBytes("3"))), 0);

        Put put = TableWriter.toPut(row, 0, 1);
        Put plain = new Put(row.key(), row.timestamp());
        for (org.apache.hadoop.hbase.Cell cell : put.getFamilyCellMap().values().stream().flatMap(List::stream).toList()) {
            plain.add(cell);
        }

        assertThat(put.size()).isEqualTo(plain.size()).isEqualTo(3);
        assertThat(put.isEmpty()).isFalse();
        assertThat(scanned(put)).containsExactlyInAnyOrderElementsOf(scanned(plain));
        assertThat(scanned(put)).extracting(cell -> Bytes.toString(CellUtil.cloneQualifier(cell)))
                .containsExactly("a", "b", "c");
        org.apache.hadoop.hbase.CellScanner scanner = put.cellScanner();
        assertThat(scanner.current()).as("before the first advance").isNull();
        while (scanner.advance()) {
            assertThat(scanner.current()).isNotNull();
        }
        assertThat(scanner.advance()).as("once past the end").isFalse();
        assertThat(scanner.current()).isNull();
    }

    private static List<org.apache.hadoop.hbase.Cell> scanned(Put put) throws java.io.IOException {
        List<org.apache.hadoop.hbase.Cell> cells = new ArrayList<>();
        org.apache.hadoop.hbase.CellScanner scanner = put.cellScanner();
        while (scanner.advance()) {
            cells.add(scanner.current());
        }
        return cells;
    }

    /**
     * The estimate stands for HBase's own sizing in the write buffer's accounting (what bounds the
     * sink's memory): within a factor of two of {@link Put#heapSize()} from narrow to wide rows.
     */
    @Test
    void shouldEstimateWithinAFactorOfTwoOfHBasesOwnHeapSize() {
        for (int[] shape : new int[][] {{1, 8}, {1, 200}, {8, 30}, {40, 400}}) {
            Row row = row(shape[0], shape[1], 0);
            Put counted = new Put(row.key(), row.timestamp());
            row.cells().forEach(cell -> counted.addColumn(cell.family(), cell.qualifier(), row.timestamp(), cell.value()));

            long estimate = TableWriter.estimatedHeapSize(row);

            assertThat((double) estimate).as("%d cells of %d bytes", shape[0], shape[1])
                    .isBetween(counted.heapSize() / 2.0, counted.heapSize() * 2.0);
        }
    }
}
