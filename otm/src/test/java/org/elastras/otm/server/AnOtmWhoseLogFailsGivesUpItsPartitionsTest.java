package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
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
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the write-ahead log dies under a commit, the OTM cannot know whether that commit is
 * durable: it must not keep serving reads that would judge it, so it answers OUTCOME_UNKNOWN,
 * stops serving and gives its lease up; another OTM recovers the partition from the DFS.
 */
class AnOtmWhoseLogFailsGivesUpItsPartitionsTest {

    @TempDir
    Path temp;

    @Test
    void aDeadLogMakesTheOtmStepDownAndTheNextOwnerHasEveryAcknowledgedCommit() throws Exception {
        Path dfs = temp.resolve("dfs");
        try (TestingServer zk = new TestingServer(true);
                CuratorFramework observer = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            observer.start();
            try (OtmNode otm = OtmNode.start(new OtmConfig("otm-w", zk.getConnectString(), "/elastras", dfs.toUri(),
                    "127.0.0.1", 0, 4_000)); OtmClient client = new OtmClient("127.0.0.1", otm.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                long first = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                client.put(new PutRequest(first, "ACCOUNTS", Map.of("ID", 1L, "BALANCE", 100L)));
                client.commit(new CommitRequest(first));

                long second = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                client.put(new PutRequest(second, "ACCOUNTS", Map.of("ID", 2L, "BALANCE", 200L)));
                wal(otm).fence("test: the log device failed");
                ElasTrasException unknown = assertThrows(ElasTrasException.class, () -> client.commit(new CommitRequest(second)));
                assertEquals(ErrorCode.OUTCOME_UNKNOWN, unknown.code(), unknown.getMessage());

                assertFalse(otm.serving());
                ElasTrasException refused = assertThrows(ElasTrasException.class,
                        () -> client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)));
                assertEquals(ErrorCode.NOT_SERVING, refused.code());
                assertNull(observer.checkExists().forPath("/elastras/otms/otm-w"), "the lease was given up");
                LeaseKeeperTest.await(() -> client.status().partitions().isEmpty(), 10_000, "the stores were let go");
            }
            try (OtmNode heir = OtmNode.start(new OtmConfig("otm-h", zk.getConnectString(), "/elastras", dfs.toUri(),
                    "127.0.0.1", 0, 4_000)); OtmClient client = new OtmClient("127.0.0.1", heir.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                long read = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                var row = client.get(new GetRequest(read, "ACCOUNTS", List.of(1L)));
                assertTrue(row.found(), "the acknowledged commit survived");
                assertEquals(100L, ((Number) row.row().get("BALANCE")).longValue());
                assertFalse(client.get(new GetRequest(read, "ACCOUNTS", List.of(2L))).found(),
                        "the fenced log took nothing after the fence");
            }
        }
    }

    private static WalWriter wal(OtmNode otm) throws Exception {
        var field = OtmNode.class.getDeclaredField("wal");
        field.setAccessible(true);
        return (WalWriter) field.get(otm);
    }
}
