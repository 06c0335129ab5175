package dev.rowflow.sinks.hbase;

import dev.rowflow.embedded.EmbeddedStack;
import dev.rowflow.embedded.EmbeddedStackExtension;
import dev.rowflow.keying.layout.RowKeyLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The UID lookup table on real HBase: one id per name even when many writers race for it. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(EmbeddedStackExtension.class)
@ParameterizedClass(name = "{0}")
@EnumSource(Store.class)
class HBaseUidStoreIT {
    private final Store store;
    private final Connection connection;

    HBaseUidStoreIT(Store store, EmbeddedStack stack) {
        EmbeddedStackExtension.assumeStoreAvailable(store.token());
        this.store = store;
        this.connection = stack.connection(store.token());
    }

    private TableName table(String name) throws Exception {
        TableName table = TableName.valueOf(name);
        try (Admin admin = connection.getAdmin()) {
            HBaseUidStore.createIfAbsent(admin, table);
            HBaseUidStore.createIfAbsent(admin, table); // idempotent
        }
        return table;
    }

    @Test
    void shouldGiveEveryNameOneIdWhenManyWritersRaceForTheFirstAssignment() throws Exception {
        TableName table = table("uid_race");
        // Four stores (as four processes: separate caches) with four threads each, same 200 names.
        List<HBaseUidStore> stores = List.of(new HBaseUidStore(connection, table), new HBaseUidStore(connection, table),
                new HBaseUidStore(connection, table), new HBaseUidStore(connection, table));
        Map<String, Set<Long>> idsSeen = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int worker = 0; worker < 16; worker++) {
                HBaseUidStore store = stores.get(worker % 4);
                int offset = worker * 13;
                tasks.add(() -> {
                    for (int i = 0; i < 200; i++) {
                        String name = "host-" + ((i + offset) % 200);
                        idsSeen.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(store.idOf("hostname", name));
                    }
                    return null;
                });
            }
            for (Future<Void> done : pool.invokeAll(tasks)) {
                done.get();
            }
        } finally {
            pool.shutdown();
        }

        assertThat(idsSeen).hasSize(200);
        assertThat(idsSeen.values()).allSatisfy(ids -> assertThat(ids).hasSize(1));
        Set<Long> distinct = new HashSet<>();
        idsSeen.values().forEach(distinct::addAll);
        assertThat(distinct).as("no two names share an id").hasSize(200);
        HBaseUidStore fresh = new HBaseUidStore(connection, table);
        for (Map.Entry<String, Set<Long>> entry : idsSeen.entrySet()) {
            long id = entry.getValue().iterator().next();
            assertThat(fresh.idOf("hostname", entry.getKey())).isEqualTo(id);
            assertThat(new HBaseUidStore(connection, table).nameOf("hostname", id)).contains(entry.getKey());
        }
    }

    @Test
    void shouldNumberEachKindFromOneAndKeepTheReverseMap() throws Exception {
        TableName table = table("uid_kinds");
        HBaseUidStore store = new HBaseUidStore(connection, table);

        assertThat(store.idOf("hostname", "web-01")).isEqualTo(1);
        assertThat(store.idOf("hostname", "web-02")).isEqualTo(2);
        assertThat(store.idOf("eventType", "login")).isEqualTo(1);
        assertThat(store.idOf("hostname", "web-01")).isEqualTo(1);
        assertThat(store.nameOf("eventType", 1)).contains("login");
        assertThat(store.nameOf("eventType", 2)).isEqualTo(Optional.empty());
        try (Table t = connection.getTable(table)) {
            byte[] reverse = Bytes.add(Bytes.toBytes("hostname"), new byte[] {1}, Bytes.toBytes(2L));
            assertThat(Bytes.toString(t.get(new Get(reverse)).getValue(Bytes.toBytes("u"), Bytes.toBytes("n"))))
                    .isEqualTo("web-02");
        }
    }

    @Test
    void shouldSubstituteNamesInARowKeyWithFixedWidthIds() throws Exception {
        HBaseUidStore store = new HBaseUidStore(connection, table("uid_keys"));
        RowKeyLayout layout = RowKeyLayout.parse("hostname:uid, eventType:uid, timestamp:ts", store);

        byte[] key = layout.encode("myserver1.mycompany.com", "com.package1.subpackage2.subsubpackage3.ImportantService", 7L);

        assertThat(key).hasSize(24).isEqualTo(Bytes.add(Bytes.toBytes(1L), Bytes.toBytes(1L), Bytes.toBytes(7L)));
        var fields = layout.decode(key).fields();
        assertThat(store.nameOf("hostname", (Long) fields.get("hostname"))).contains("myserver1.mycompany.com");
    }
}
