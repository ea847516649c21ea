package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.wal.WalNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master fences a failed OTM's log by renaming {@code wal/<id>@<start>} to {@code wal-fenced/<id>@<start>};
 * the OTM that opens the partition next must replay the log from there, or commits that were
 * only in that log would be lost.
 */
class RecoveryReadsAFencedLogTest {

    @TempDir
    Path temp;

    @Test
    void commitsOnlyInAFencedLogAreRecoveredByTheNextOwner() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode first = OtmNode.start(config("otm-first", zk));
            try (OtmClient client = new OtmClient("127.0.0.1", first.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                for (long id = 1; id <= 20; id++) {
                    long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                    client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", id, "BALANCE", id * 10)));
                    client.commit(new CommitRequest(txn));
                }
            }
            // Closing without a flush: the rows are only in first's log, which the manifest names.
            first.close();
            try (Dfs dfs = Dfs.open(temp.resolve("dfs").toUri())) {
                dfs.mkdirs(WalNames.FENCED_ROOT);
                dfs.rename(WalNames.liveDirectory(first.walId()), WalNames.fencedDirectory(first.walId()));
                assertFalse(dfs.exists(WalNames.liveDirectory(first.walId())));
            }
            try (OtmNode second = OtmNode.start(config("otm-second", zk));
                    OtmClient client = new OtmClient("127.0.0.1", second.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                for (long id = 1; id <= 20; id++) {
                    var row = client.get(new GetRequest(txn, "ACCOUNTS", List.of(id)));
                    assertTrue(row.found(), "row " + id + " committed before the fence must be recovered");
                    assertEquals(id * 10, ((Number) row.row().get("BALANCE")).longValue());
                }
                client.commit(new CommitRequest(txn));
            }
        }
    }

    private OtmConfig config(String id, TestingServer zk) {
        return new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(), "127.0.0.1", 0, 4_000);
    }
}
