package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.elastras.client.MasterClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.CtsRange;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.elastras.client.protocol.TimestampReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master's heartbeat endpoint over a real socket: ranges, snapshot, resent reports, standbys,
 * and which runs of an OTM id it answers (only the one registered in ZooKeeper).
 */
class MasterAnswersHeartbeatsTest {

    @TempDir
    Path temp;

    @Test
    void theActiveMasterHandsOutRangesAndAResentReportIsAnsweredTheSame() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                CuratorFramework otm = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
                Master active = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri()))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // With no OTM the catalog cannot be read, so the master never becomes active for the
            // admin API; but its timestamp service runs from election on (OTMs need ranges to open
            // the catalog's partitions).
            while (active.snapshotCts() < 0) {
                assertTrue(System.nanoTime() < deadline, "the elected master never started its timestamp service");
                Thread.sleep(10);
            }
            try (Master standby = Master.start(MasterConfig.defaults("master-2", zk.getConnectString(), "/elastras",
                            temp.resolve("dfs").toUri()));
                    MasterClient client = new MasterClient("127.0.0.1", active.port(), OtmClientConfig.defaults());
                    MasterClient toStandby = new MasterClient("127.0.0.1", standby.port(), OtmClientConfig.defaults())) {
                // The OTM registers its run as OtmNode does; the master answers only that run.
                otm.start();
                otm.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/elastras/otms/otm-x",
                        "{\"host\":\"127.0.0.1\",\"port\":1,\"run\":\"otm-x@1\"}".getBytes(StandardCharsets.UTF_8));
                HeartbeatResponse first = null;
                while (first == null) {
                    try {
                        first = client.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null));
                    } catch (ElasTrasException e) {
                        assertEquals(ErrorCode.NOT_SERVING, e.code(), "until the master sees the registration: " + e);
                        assertTrue(System.nanoTime() < deadline, "the registered run was never answered: " + e);
                        Thread.sleep(10);
                    }
                }
                assertEquals("master-1", first.masterId());
                CtsRange range = first.timestamps().newRange();
                assertNotNull(range);
                assertEquals(first, client.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)),
                        "a resent report is answered with the same reply");

                TimestampReport used = new TimestampReport(range, range.sizeCts(), List.of(range), List.of(), List.of(range));
                OtmLoad load = new OtmLoad(0.25, 1_000, 2_000, List.of(new PartitionLoad(7, 10, 1)));
                HeartbeatResponse second = client.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 2, used, load));
                assertEquals(load, active.loads().get("otm-x"));
                assertTrue(second.timestamps().newRange().firstCts() > range.lastCts());
                assertEquals(range.lastCts(), second.timestamps().snapshotCts(), "the used range is readable");

                ElasTrasException stale = assertThrows(ElasTrasException.class,
                        () -> client.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)));
                assertEquals(ErrorCode.MALFORMED_REQUEST, stale.code());
                // Another run of the id (a zombie of an earlier one), and an id nobody registered, must stop.
                for (HeartbeatRequest foreign : List.of(new HeartbeatRequest("otm-x", "otm-x@0", 1, TimestampReport.first(), null),
                        new HeartbeatRequest("otm-z", "otm-z@1", 1, TimestampReport.first(), null))) {
                    ElasTrasException refused = assertThrows(ElasTrasException.class, () -> client.heartbeat(foreign));
                    assertEquals(ErrorCode.DECLARED_FAILED, refused.code(), foreign.run() + ": " + refused.getMessage());
                }
                assertEquals(load, active.loads().get("otm-x"), "the refused heartbeats changed nothing");
                assertEquals(null, active.loads().get("otm-z"));
                ElasTrasException notActive = assertThrows(ElasTrasException.class,
                        () -> toStandby.heartbeat(new HeartbeatRequest("otm-y", "otm-y@1", 1, TimestampReport.first(), null)));
                assertEquals(ErrorCode.NOT_SERVING, notActive.code());
            }
        }
    }
}
