package dev.rowflow.keying.mapping;

import dev.rowflow.keying.Cell;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.TableRole;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.layout.UidResolver;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Rows per array element ({@link MappingSpec.ElementRowsSpec}) and what they are made with:
 * {@code $position}, {@code $ordinal}, {@code [*]} paths, {@code size}, {@code int32}/{@code int64}
 * cells, a wildcard over an array, constant key parts and {@code $value}.
 */
class ElementRowsTest {
    private static final TableRole ORDERS = TableRole.of("test.orders");
    private static final TableRole ITEMS = TableRole.of("test.items");
    private static final TableRole INDEX = TableRole.of("test.orders.index");
    private static final Function<FieldPath, Optional<String>> ANY = path -> Optional.empty();
    private static final String ORDER = """
            {"id":"o-7","at":1795334400123,"phones":["+1 555","+1 556"],
             "boxes":[{"city":"Ghent","items":[{"sku":"a","qty":2},{"sku":"b","qty":1}]},
                      null,
                      {"city":"Austin","items":[{"sku":"c","qty":5}]},
                      {"city":"Nowhere"}]}
            """;

    private static MappingSpec spec(String columns, MappingSpec.ElementRowsSpec... rows) {
        return new MappingSpec(ORDERS, "d", "id:text, 49:byte", ColumnSpec.parseList(columns), "at",
                TimeFormat.parse("epoch-ms", ZoneOffset.UTC), false, 0,
                List.of(new MappingSpec.IndexSpec("by_count", INDEX, "size(boxes):long, id:text", false)), null, 0)
                .withElementRows(List.of(rows));
    }

    private static MappingSpec.ElementRowsSpec items(String each, String key, String columns) {
        return new MappingSpec.ElementRowsSpec("items", ITEMS, each, key, ColumnSpec.parseList(columns));
    }

    private static List<Row> rowsOf(EventMapping mapping, String json) {
        Map<String, Object> record = RecordTree.parseJson(json.getBytes(UTF_8));
        return mapping.rowsOf(record, RecordSource.ofTimestamp(0), () -> json.getBytes(UTF_8),
                mapping.eventTime(record, 0));
    }

    private static EventMapping compile(MappingSpec spec) {
        return EventMapping.compile(spec, (UidResolver) null, ANY);
    }

    @Test
    void shouldMakeARowPerElementOfNestedArraysWithPositionsAndOrdinals() {
        EventMapping mapping = compile(spec("id=i, size(boxes):long=n, size(boxes[*].items[*]):long=ni",
                items("boxes as box, box.items as item", "id:text, 51:byte, $position.box:int, $position.item:int",
                        "item.sku=s, box.city=c, $ordinal:int32=o, id=i")));

        List<Row> rows = rowsOf(mapping, ORDER);

        assertThat(rows).extracting(Row::table).containsExactly(ORDERS, INDEX, ITEMS, ITEMS, ITEMS);
        RowKeyLayout itemKey = RowKeyLayout.parse("id:text, 51:byte, $position.box:int, $position.item:int", null);
        // The null second box makes no row and keeps the third at position 3; the fourth has no items.
        assertThat(rows.subList(2, 5)).extracting(Row::key).containsExactly(itemKey.encode("o-7", 51, 1, 1),
                itemKey.encode("o-7", 51, 1, 2), itemKey.encode("o-7", 51, 3, 1));
        assertThat(rows.get(4).cells()).extracting(cell -> new String(cell.qualifier(), UTF_8) + "="
                        + HexFormat.of().formatHex(cell.value()))
                .containsExactly("s=63", "c=" + HexFormat.of().formatHex("Austin".getBytes(UTF_8)), "o=00000003",
                        "i=" + HexFormat.of().formatHex("o-7".getBytes(UTF_8)));
        assertThat(rows).extracting(Row::timestamp).containsOnly(1795334400123L);
        assertThat(rows.get(0).cells()).contains(new Cell(bytes("d"), bytes("ni"), bytes("3")));
    }

    @Test
    void shouldRepeatAConstantKeyPartAndEncodeItAsItsByte() {
        EventMapping mapping = compile(spec("id=i, size(boxes):long=n",
                items("boxes as box", "id:text, 50:byte, box.city:text, 50:byte, $position.box:int", "box.city=c")));

        List<Row> rows = rowsOf(mapping, ORDER);

        assertThat(rows.get(0).key()).isEqualTo(bytes("o-7\0" + "1"));
        byte[] position = {(byte) 0x80, 0, 0, 1};
        assertThat(rows.get(2).key()).isEqualTo(concat(bytes("o-7\0" + "2" + "Ghent\0" + "2"), position));
        assertThat(rows).hasSize(2 + 3);
    }

    @Test
    void shouldStoreInt32AndInt64AsBigEndianBytesAndRefuseAValueBeyond32Bits() {
        EventMapping mapping = compile(spec("at:int64=t, size(phones):int32=n2, id=i, size(boxes):long=n"));

        List<Row> rows = rowsOf(mapping, ORDER);

        assertThat(rows.get(0).cells()).contains(new Cell(bytes("d"), bytes("t"),
                ByteBuffer.allocate(8).putLong(1795334400123L).array()), new Cell(bytes("d"), bytes("n2"),
                new byte[]{0, 0, 0, 2}));
        EventMapping narrow = compile(spec("at:int32=t, id=i, size(boxes):long=n"));
        assertThatThrownBy(() -> rowsOf(narrow, ORDER)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("1795334400123").hasMessageContaining("a whole number of 32 bits");
    }

    @Test
    void shouldRebuildAnIndexRowFromAnInt64Column() {
        EventMapping mapping = compile(spec("id=i, size(boxes):int64=n"));
        Row data = rowsOf(mapping, ORDER).get(0);
        Map<String, byte[]> stored = new java.util.HashMap<>();
        data.cells().forEach(cell -> stored.put(new String(cell.qualifier(), UTF_8), cell.value()));

        Optional<Row> index = mapping.indexRowOf(INDEX, data.key(), q -> stored.get(new String(q, UTF_8)),
                data.timestamp());

        assertThat(index).isPresent();
        assertThat(index.get().key()).isEqualTo(rowsOf(mapping, ORDER).get(1).key());
    }

    @Test
    void shouldTakeEachElementOfAnArrayUnderAWildcardByItsPosition() {
        EventMapping mapping = compile(spec("id=i, size(boxes):long=n, phones.*=p*"));

        List<Cell> cells = rowsOf(mapping, ORDER).get(0).cells();

        assertThat(cells).contains(new Cell(bytes("d"), bytes("p0"), bytes("+1 555")),
                new Cell(bytes("d"), bytes("p1"), bytes("+1 556")));
    }

    @Test
    void shouldWriteTheRecordAsItsFormatKeepsItUnderValue() {
        EventMapping mapping = compile(spec("id=i, size(boxes):long=n, $value=v"));

        List<Cell> cells = rowsOf(mapping, ORDER).get(0).cells();

        assertThat(cells).contains(new Cell(bytes("d"), bytes("v"), bytes(ORDER)));
    }

    @Test
    void shouldSetARecordAsideWhoseEachPathHoldsNoArray() {
        EventMapping mapping = compile(spec("id=i, size(boxes):long=n", items("boxes as box, box.city as c",
                "id:text, $position.box:int, $position.c:int", "c=c")));

        assertThatThrownBy(() -> rowsOf(mapping, ORDER)).isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("box.city").hasMessageContaining("Ghent")
                .hasMessageContaining("where rows items take an array");
    }

    @Test
    void shouldRefuseWhatOnlyElementRowsHaveOutsideThemAndAnAliasEachDoesNotGive() {
        // ($ordinal outside element rows is also a held record's number: the input's compiler checks its format.)
        assertThatThrownBy(() -> compile(spec("id=i, size(boxes):long=n, $position.box:long=o")))
                .isInstanceOf(MappingException.class).hasMessageContaining("$position")
                .extracting(e -> ((MappingException) e).piece()).isEqualTo(MappingException.Piece.COLUMNS);
        assertThatThrownBy(() -> compile(spec("id=i, size(boxes):long=n", items("boxes as box", "id:text, $position.bx:int", "box.city=c"))))
                .isInstanceOf(MappingException.class).hasMessageContaining("$position.bx")
                .hasMessageContaining("aliases: box");
        assertThatThrownBy(() -> compile(spec("id=i, size(boxes):long=n", items("boxes box", "id:text", "box.city=c"))))
                .isInstanceOf(MappingException.class).hasMessageContaining("'boxes box' is not 'path as alias'")
                .extracting(e -> ((MappingException) e).index()).isEqualTo("items");
        assertThatThrownBy(() -> compile(spec("id=i, size(boxes):long=n", items("boxes as b, b.items as b", "id:text", "b.sku=s"))))
                .isInstanceOf(MappingException.class).hasMessageContaining("alias 'b' is given twice");
    }

    @Test
    void shouldCheckElementPathsAgainstTheFormatThroughTheirAliases() {
        Function<FieldPath, Optional<String>> yield = path -> path.text().startsWith("boxes[0].items[0].")
                && !path.text().equals("boxes[0].items[0].sku") ? Optional.of("no field " + path) : Optional.empty();
        MappingSpec spec = spec("id=i, size(boxes):long=n", items("boxes as box, box.items as item", "id:text, $ordinal:int",
                "item.sku=s, item.price=p"));

        assertThatThrownBy(() -> EventMapping.compile(spec, (UidResolver) null, yield))
                .isInstanceOf(MappingException.class).hasMessageContaining("no field boxes[0].items[0].price")
                .extracting(e -> ((MappingException) e).piece()).isEqualTo(MappingException.Piece.ELEMENT_COLUMNS);
    }

    @Test
    void shouldResolveEveryElementOfAPathWithStars() {
        Map<String, Object> record = RecordTree.parseJson(ORDER.getBytes(UTF_8));

        assertThat(FieldPath.parse("boxes[*].city").resolve(record)).isEqualTo(List.of("Ghent", "Austin", "Nowhere"));
        assertThat(FieldPath.parse("boxes[*].items[*].sku").resolve(record)).isEqualTo(List.of("a", "b", "c"));
        assertThat(FieldPath.parse("missing[*].sku").resolve(record)).isNull();
        assertThat(Expression.parse("size(boxes[*].items)").evaluate(record, RecordSource.ofTimestamp(0)))
                .isEqualTo(2L);
        assertThatThrownBy(() -> Expression.parse("size(id)").evaluate(record, RecordSource.ofTimestamp(0)))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("where size takes an array");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
