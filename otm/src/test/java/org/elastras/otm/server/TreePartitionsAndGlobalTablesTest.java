package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tree-partitioned database on one OTM: two partitions of the root key, child rows routed by
 * their root key, and a global table loaded once and read (never written) by transactions.
 */
class TreePartitionsAndGlobalTablesTest {

    @TempDir
    Path temp;

    static DatabaseSchema shop() {
        return DatabaseSchema.tree("SHOP")
                .root("WAREHOUSE", t -> t.column("W_ID", ColumnType.INT).column("W_NAME", ColumnType.varchar(20)).key("W_ID"))
                .child("STOCK", t -> t.column("W_ID", ColumnType.INT).column("I_ID", ColumnType.INT)
                        .column("QUANTITY", ColumnType.INT).key("W_ID", "I_ID"))
                .global("ITEM", t -> t.column("I_ID", ColumnType.INT).column("I_NAME", ColumnType.varchar(24)).key("I_ID"))
                .build();
    }

    @Test
    void childRowsStayInTheirRootKeysPartitionAndGlobalTablesAreReadOnly() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                OtmNode otm = OtmNode.start(new OtmConfig("otm-t", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri(), "127.0.0.1", 0, 4_000));
                OtmClient client = new OtmClient("127.0.0.1", otm.port())) {
            client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(shop())));
            client.openPartition(new OpenPartitionRequest("SHOP", 10, null, List.of(3)));
            client.openPartition(new OpenPartitionRequest("SHOP", 11, List.of(3), null));
            List<Map<String, Object>> items = new ArrayList<>();
            for (int i = 1; i <= 100; i++) {
                items.add(Map.of("I_ID", i, "I_NAME", "item-" + i));
            }
            assertEquals(100, client.loadGlobalTable(new LoadGlobalTableRequest("SHOP", "ITEM", items)).rows());

            long txn = client.begin(new BeginRequest("SHOP", 10, Isolation.SERIALIZABLE, 0)).txnId();
            var item = client.get(new GetRequest(txn, "ITEM", List.of(42)));
            assertTrue(item.found());
            assertEquals("item-42", item.row().get("I_NAME"));
            client.put(new PutRequest(txn, "STOCK", Map.of("W_ID", 1, "I_ID", 42, "QUANTITY", 10)));
            ElasTrasException outside = assertThrows(ElasTrasException.class,
                    () -> client.put(new PutRequest(txn, "STOCK", Map.of("W_ID", 5, "I_ID", 42, "QUANTITY", 10))));
            assertEquals(ErrorCode.MALFORMED_REQUEST, outside.code(), outside.getMessage());
            ElasTrasException readOnly = assertThrows(ElasTrasException.class,
                    () -> client.put(new PutRequest(txn, "ITEM", Map.of("I_ID", 1, "I_NAME", "changed"))));
            assertEquals(ErrorCode.MALFORMED_REQUEST, readOnly.code(), readOnly.getMessage());
            client.commit(new CommitRequest(txn));

            long other = client.begin(new BeginRequest("SHOP", 11, Isolation.SERIALIZABLE, 0)).txnId();
            ElasTrasException elsewhere = assertThrows(ElasTrasException.class,
                    () -> client.get(new GetRequest(other, "STOCK", List.of(1, 42))));
            assertTrue(elsewhere.getMessage().contains("outside partition"), "warehouse 1 lives in partition 10: "
                    + elsewhere.getMessage());
            assertFalse(client.get(new GetRequest(other, "STOCK", List.of(7, 42))).found());
            client.put(new PutRequest(other, "STOCK", Map.of("W_ID", 7, "I_ID", 42, "QUANTITY", 3)));
            client.commit(new CommitRequest(other));

            long check = client.begin(new BeginRequest("SHOP", 10, Isolation.SNAPSHOT, 0)).txnId();
            var stock = client.scan(new ScanRequest(check, "STOCK", null, null, 100)).rows();
            assertEquals(1, stock.size(), "partition 10 sees only its own stock rows: " + stock);
            assertEquals(1, ((Number) stock.get(0).get("W_ID")).intValue());
            assertEquals(1, client.scan(new ScanRequest(check, "STOCK", List.of(1), List.of(1), 100)).rows().size(),
                    "toKey is an inclusive prefix: [1]..[1] is every row of warehouse 1");
            assertEquals(0, client.scan(new ScanRequest(check, "STOCK", List.of(1, 43), List.of(2), 100)).rows().size());

            ElasTrasException badLoad = assertThrows(ElasTrasException.class,
                    () -> client.loadGlobalTable(new LoadGlobalTableRequest("SHOP", "STOCK", List.of())));
            assertEquals(ErrorCode.UNKNOWN_TABLE, badLoad.code(), "only GLOBAL tables load whole");
            ElasTrasException badRange = assertThrows(ElasTrasException.class,
                    () -> client.openPartition(new OpenPartitionRequest("SHOP", 12, List.of("x"), null)));
            assertEquals(ErrorCode.TYPE_MISMATCH, badRange.code(), badRange.getMessage());
        }
    }
}
