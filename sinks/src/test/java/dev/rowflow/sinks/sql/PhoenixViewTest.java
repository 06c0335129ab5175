package dev.rowflow.sinks.sql;

import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.StoredColumns.Storage;
import dev.rowflow.keying.mapping.StoredColumns.StoredColumn;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class PhoenixViewTest {
    private static final RowKeyLayout DATA = RowKeyLayout.parse(
            "bucket(4) | @timestamp:ts, host.name:text, log.file.path:md5, log.offset:long", null);
    private static final RowKeyLayout INDEX = RowKeyLayout.parse(
            "host.name:text, event.dataset | 'generic':text, @timestamp:rts, log.file.path:md5, log.offset:long", null);

    @Test
    void shouldDeclareTheKeyInTheTypesWhoseBytesRowflowWritesAndTheCellsAsFamilyQualifierColumns() {
        PhoenixView view = new PhoenixView("filebeat", "rows of filebeat.data", DATA, List.of(
                new StoredColumn("d", "m", false, Storage.TEXT, "message=m"),
                new StoredColumn("d", "n", false, Storage.INT32, "n:int32"),
                new StoredColumn("d", "x.", true, Storage.TEXT, "*=x.*")),
                Map.of("d", Set.of("m", "n", "x.agent.type", "x.labels.team", "y")), PhoenixView.Shape.of(DATA));

        assertThat(view.ddl()).isEqualTo("""
                -- filebeat: rows of filebeat.data, key layout bucket(4) | @timestamp:ts, host.name:text, log.file.path:md5, log.offset:long
                --   "salt": the bucket a hash of the key put the row in, 0..3: a query bounded on the parts after it reads every bucket, as a skip scan when it names them all: WHERE "salt" IN (0, 1, 2, 3) AND ...
                --   "@timestamp": ms since the epoch: WHERE "@timestamp" >= TO_DATE('2026-01-01 00:00:00')
                --   "log.file.path": the MD5 digest of the value: WHERE "log.file.path" = MD5('the value')
                --   "d"."n": Phoenix's unsigned types read values >= 0 only
                --   "d"."x.*": the qualifiers *=x.* wrote into the rows sampled; run again to add those written since
                CREATE VIEW "filebeat" (
                    "salt" UNSIGNED_TINYINT NOT NULL,
                    "@timestamp" UNSIGNED_DATE NOT NULL,
                    "host.name" VARCHAR NOT NULL,
                    "log.file.path" BINARY(16) NOT NULL,
                    "log.offset" BIGINT NOT NULL,
                    "d"."m" VARCHAR,
                    "d"."n" UNSIGNED_INT,
                    "d"."x.agent.type" VARCHAR,
                    "d"."x.labels.team" VARCHAR,
                    CONSTRAINT "pk" PRIMARY KEY ("salt", "@timestamp", "host.name", "log.file.path", "log.offset")
                ) COLUMN_ENCODED_BYTES=0;
                """);
        // A view Phoenix has: the columns it lacks, nothing else.
        assertThat(view.ddl(Optional.of(Set.of("\"salt\"", "\"d\".\"m\"", "\"d\".\"x.agent.type\"")))).endsWith("""
                --   "d"."x.*": the qualifiers *=x.* wrote into the rows sampled; run again to add those written since
                ALTER VIEW "filebeat" ADD IF NOT EXISTS
                    "d"."n" UNSIGNED_INT,
                    "d"."x.labels.team" VARCHAR;
                """);
        assertThat(view.ddl(Optional.of(Set.copyOf(view.cellColumns().keySet()))))
                .endsWith("-- the view \"filebeat\" exists with every column\n");
    }

    @Test
    void shouldJoinAnIndexToItsDataOnEveryPartOfTheDataKeyUndoingTheReverseTime() {
        PhoenixView data = new PhoenixView("filebeat", "data", DATA, List.of(), Map.of(), PhoenixView.Shape.of(DATA));
        PhoenixView index = new PhoenixView("filebeat_host", "index", INDEX,
                List.of(new StoredColumn("i", "r", false, Storage.ROW_KEY, "the key of the data row")), Map.of(),
                PhoenixView.Shape.of(INDEX));

        assertThat(index.keyColumns()).containsExactly("host.name", "event.dataset", "@timestamp", "log.file.path",
                "log.offset");
        assertThat(index.joinTo(data, "i.\"host.name\" = 'web-1'")).hasValue("SELECT d.* FROM \"filebeat\" d "
                + "JOIN \"filebeat_host\" i ON d.\"host.name\" = i.\"host.name\" AND d.\"log.file.path\" = "
                + "i.\"log.file.path\" AND d.\"log.offset\" = i.\"log.offset\" WHERE TO_NUMBER(d.\"@timestamp\") = "
                + "9223372036854775807 - i.\"@timestamp\" AND i.\"host.name\" = 'web-1'");
        // An index without the data key's offset cannot find its data rows by value.
        RowKeyLayout partialLayout = RowKeyLayout.parse("host.name:text, @timestamp:ts", null);
        PhoenixView partial = new PhoenixView("partial", "index", partialLayout, List.of(), Map.of(),
                PhoenixView.Shape.of(partialLayout));
        assertThat(partial.joinTo(data, null)).isEmpty();
    }

    @Test
    void shouldGiveTheRestOfLongerKeysItsOwnLastColumnAndQuoteEveryName() {
        // CUSTOMER++ and record types: customer rows end after their record type, line items run on; Phoenix
        // takes no nullable fixed-width key column, so the row type is the first byte of the rest.
        PhoenixView view = new PhoenixView("we\"ird", "orders", RowKeyLayout.parse(
                "customerNumber:text, recordType:byte, orderNumber:text, rowType:byte", null), List.of(), Map.of(),
                new PhoenixView.Shape(2, true));

        assertThat(view.keyColumns()).containsExactly("customerNumber", "recordType", "orderNumber", "rest");
        assertThat(view.partColumns()).isEqualTo(3);
        assertThat(view.ddl()).contains("CREATE VIEW \"we\"\"ird\" (", "\"recordType\" UNSIGNED_TINYINT NOT NULL,\n"
                + "    \"orderNumber\" VARCHAR,\n    \"rest\" VARBINARY,\n    CONSTRAINT \"pk\" PRIMARY KEY "
                + "(\"customerNumber\", \"recordType\", \"orderNumber\", \"rest\")").doesNotContain("ALTER VIEW");
    }

    @Test
    void shouldLeaveAVariableWidthPartSomeKeysLackNullableWithoutARest() {
        // The blob design with CUSTOMER++: a customer's row ends after its record type, an order's after its number.
        RowKeyLayout layout = RowKeyLayout.parse("customerNumber:text, recordType:byte, orderNumber:text", null);
        PhoenixView view = new PhoenixView("orders", "blob", layout, List.of(
                new StoredColumn("d", "ob", false, Storage.BYTES, "$value=ob")), Map.of(), new PhoenixView.Shape(2, false));

        assertThat(view.keyColumns()).containsExactly("customerNumber", "recordType", "orderNumber");
        assertThat(view.ddl()).contains("    \"recordType\" UNSIGNED_TINYINT NOT NULL,\n    \"orderNumber\" VARCHAR,\n"
                + "    \"d\".\"ob\" VARBINARY,\n");
    }

    @Test
    void shouldAddACellNamedAsAKeyColumnAfterTheCreateAsPhoenixTakesItThereOnly() {
        RowKeyLayout layout = RowKeyLayout.parse("id:long", null);
        PhoenixView view = new PhoenixView("orders", "change events", layout, List.of(
                new StoredColumn("d", "", true, Storage.TEXT, "*")), Map.of("d", Set.of("id", "total")),
                PhoenixView.Shape.of(layout));

        assertThat(view.cellColumns().keySet()).containsExactly("\"d\".\"total\"", "\"d\".\"id\"");
        assertThat(view.ddl()).endsWith("""
                    "id" BIGINT NOT NULL,
                    "d"."total" VARCHAR,
                    CONSTRAINT "pk" PRIMARY KEY ("id")
                ) COLUMN_ENCODED_BYTES=0;
                ALTER VIEW "orders" ADD IF NOT EXISTS
                    "d"."id" VARCHAR;
                """);
    }

    @Test
    void shouldMakeNoViewOfRowsAsColumnsWhoseCellsNoColumnCanName() {
        RowKeyLayout layout = RowKeyLayout.parse("hostname:text, timestamp:ts", null);
        PhoenixView view = new PhoenixView("log_buckets", "rows as columns", layout, List.of(new StoredColumn("d", "",
                true, Storage.BYTES, "one record per cell, the qualifier its 4-byte millisecond offset in the row's "
                + "3600 s bucket")), Map.of("d", Set.of("\u0000\u0000\u0001\u0002")), PhoenixView.Shape.of(layout));

        assertThat(view.ddl()).doesNotContain("CREATE VIEW").endsWith("""
                --   cells of family "d": one record per cell, the qualifier its 4-byte millisecond offset in the row's 3600 s bucket; no SQL column can name them
                -- no view: read these rows with `rowflow query`
                """);
    }

    @Test
    void shouldNameEachEncodingsPhoenixType() {
        RowKeyLayout layout = RowKeyLayout.parse("hex(2) | a:text, b:dec, c:long, d:int, e:ts, f:rts, g:md5, h:byte", null);
        PhoenixView view = new PhoenixView("t", "all", layout, List.of(
                new StoredColumn("d", "v", false, Storage.BYTES, "$value=v"),
                new StoredColumn("d", "w", false, Storage.INT64, "w:int64=w")), Map.of(), PhoenixView.Shape.of(layout));

        assertThat(view.keyTypes()).containsExactly(Map.entry("salt", "CHAR(2)"), Map.entry("a", "VARCHAR"),
                Map.entry("b", "VARCHAR"), Map.entry("c", "BIGINT"), Map.entry("d", "INTEGER"),
                Map.entry("e", "UNSIGNED_DATE"), Map.entry("f", "UNSIGNED_LONG"), Map.entry("g", "BINARY(16)"),
                Map.entry("h", "UNSIGNED_TINYINT"));
        assertThat(view.cellColumns()).containsExactly(Map.entry("\"d\".\"v\"", "VARBINARY"),
                Map.entry("\"d\".\"w\"", "UNSIGNED_LONG"));
        assertThat(PhoenixTypes.of(RowKeyLayout.parse("bucket(200) | a:text", null).salt())).isEqualTo("BINARY(1)");
    }
}
