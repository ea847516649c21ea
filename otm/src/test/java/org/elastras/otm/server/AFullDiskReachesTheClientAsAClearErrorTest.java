package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.storage.dfs.FaultInjectingDfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.otm.txn.TransactionLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTM's DFS fills up under a commit: the client gets OUTCOME_UNKNOWN with a message that
 * names the full disk (not a bare "log failed"), the OTM stops serving, and once space returns a
 * new owner recovers every acknowledged commit.
 */
class AFullDiskReachesTheClientAsAClearErrorTest {

    @TempDir
    Path temp;

    @Test
    void aCommitTheFullLogCannotTakeIsReportedWithTheCauseAndTheHeirHasEveryAcknowledgedCommit() throws Exception {
        Path dfsPath = temp.resolve("dfs");
        try (TestingServer zk = new TestingServer(true)) {
            FaultInjectingDfs dfs = new FaultInjectingDfs(LocalDfs.open(dfsPath));
            OtmConfig config = new OtmConfig("otm-f", zk.getConnectString(), "/elastras", dfsPath.toUri(), "127.0.0.1", 0, 4_000);
            try (OtmNode otm = OtmNode.start(config, TransactionLimits.DEFAULT, dfs);
                    OtmClient client = new OtmClient("127.0.0.1", otm.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                for (long id = 1; id <= 20; id++) {
                    long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                    client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", id, "BALANCE", 100L * id)));
                    client.commit(new CommitRequest(txn));
                }

                long unlucky = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                client.put(new PutRequest(unlucky, "ACCOUNTS", Map.of("ID", 99L, "BALANCE", 1L)));
                dfs.setFreeBytes(0);
                ElasTrasException unknown = assertThrows(ElasTrasException.class, () -> client.commit(new CommitRequest(unlucky)));
                assertEquals(ErrorCode.OUTCOME_UNKNOWN, unknown.code(), unknown.getMessage());
                assertTrue(unknown.getMessage().contains(FaultInjectingDfs.NO_SPACE),
                        "the client learns why: " + unknown.getMessage());
                assertFalse(otm.serving());
            }

            dfs.unlimitedSpace();
            try (OtmNode heir = OtmNode.start(new OtmConfig("otm-h", zk.getConnectString(), "/elastras", dfsPath.toUri(),
                    "127.0.0.1", 0, 4_000)); OtmClient client = new OtmClient("127.0.0.1", heir.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                long read = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                for (long id = 1; id <= 20; id++) {
                    var row = client.get(new GetRequest(read, "ACCOUNTS", List.of(id)));
                    assertTrue(row.found(), "acknowledged account " + id + " survived");
                    assertEquals(100L * id, ((Number) row.row().get("BALANCE")).longValue());
                }
                assertFalse(client.get(new GetRequest(read, "ACCOUNTS", List.of(99L))).found(),
                        "nothing of the commit that could not be logged");
            }
        }
    }
}
