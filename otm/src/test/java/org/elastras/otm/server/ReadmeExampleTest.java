package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's example, compiled and run, so the README cannot drift from the API. */
class ReadmeExampleTest {

    @TempDir
    Path temp;

    @Test
    void theReadmeExampleRuns() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                OtmNode otm = OtmNode.start(new OtmConfig("otm-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri(), "127.0.0.1", 0, 4_000))) {
            assertEquals(125L, example(otm.port()));
        }
    }

    // README example begins
    static long example(int otmPort) {
        DatabaseSchema tenant = DatabaseSchema.singlePartition("ACME")
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
        try (OtmClient otm = new OtmClient("127.0.0.1", otmPort)) {
            otm.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(tenant)));
            otm.openPartition(new OpenPartitionRequest("ACME", 1, null, null));

            long txn = otm.begin(new BeginRequest("ACME", 1, Isolation.SERIALIZABLE, 0)).txnId();
            otm.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 42L, "BALANCE", 125L)));
            long cts = otm.commit(new CommitRequest(txn)).cts(); // durable: logged and synced on the DFS

            long read = otm.begin(new BeginRequest("ACME", 1, Isolation.SERIALIZABLE, cts)).txnId();
            Map<String, Object> row = otm.get(new GetRequest(read, "ACCOUNTS", List.of(42L))).row();
            otm.commit(new CommitRequest(read));
            return ((Number) row.get("BALANCE")).longValue();
        }
    }
    // README example ends
}
