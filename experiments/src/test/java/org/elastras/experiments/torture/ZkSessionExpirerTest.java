package org.elastras.experiments.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness can expire another client's session on the embedded server: its ephemeral node goes and it is told LOST. */
class ZkSessionExpirerTest {

    @TempDir
    Path temp;

    @Test
    void theOwnerOfAnEphemeralNodeLosesItsSession() throws Exception {
        InstanceSpec spec = new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, TortureCluster.ZK_TICK_MS, 0);
        try (TestingServer zk = new TestingServer(spec, true);
                CuratorFramework victim = CuratorFrameworkFactory.newClient(zk.getConnectString(), 4_000, 4_000,
                        new ExponentialBackoffRetry(100, 3));
                CuratorFramework harness = CuratorFrameworkFactory.newClient(zk.getConnectString(), 4_000, 4_000,
                        new ExponentialBackoffRetry(100, 3))) {
            victim.start();
            harness.start();
            CountDownLatch lost = new CountDownLatch(1);
            victim.getConnectionStateListenable().addListener((client, state) -> {
                if (state == ConnectionState.LOST) {
                    lost.countDown();
                }
            });
            victim.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/elastras/otms/otm-1");
            long session = victim.getZookeeperClient().getZooKeeper().getSessionId();

            assertEquals(session, ZkSessionExpirer.expireOwnerOf(zk, harness, "/elastras/otms/otm-1"));

            assertTrue(lost.await(20, TimeUnit.SECONDS), "the victim was not told its session is lost");
            assertNull(harness.checkExists().forPath("/elastras/otms/otm-1"), "the ephemeral node survived");
        }
    }
}
