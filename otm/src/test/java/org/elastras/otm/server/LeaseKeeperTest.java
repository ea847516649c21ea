package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.meta.ZkPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

public class LeaseKeeperTest {

    private TestingServer zk;
    private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stop() throws Exception {
        clients.forEach(CuratorFramework::close);
        zk.close();
    }

    private CuratorFramework client(int sessionTimeoutMs) {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(zk.getConnectString())
                .sessionTimeoutMs(sessionTimeoutMs).connectionTimeoutMs(2_000).retryPolicy(new RetryNTimes(100, 100)).build();
        c.start();
        clients.add(c);
        return c;
    }

    private static final class Events implements LeaseKeeper.Listener {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void leaseSuspended() {
            seen.add("suspended");
        }

        @Override
        public void leaseResumed() {
            seen.add("resumed");
        }

        @Override
        public void leaseLost() {
            seen.add("lost");
        }
    }

    public static void await(BooleanSupplier condition, long timeoutMs, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeoutMs + " ms waiting for: " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void oneLiveProcessPerOtmIdAndARestartWaitsForTheEarlierOneToGo() throws Exception {
        LeaseKeeper first = new LeaseKeeper(client(10_000), ZkPaths.defaults(), "otm-1", new byte[] {1}, new Events());
        first.acquire(5_000);
        assertTrue(first.holds());
        LeaseKeeper second = new LeaseKeeper(client(10_000), ZkPaths.defaults(), "otm-1", new byte[] {2}, new Events());
        long started = System.nanoTime();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> second.acquire(1_000));
        assertTrue(e.getMessage().contains("already registered"), e.getMessage());
        assertTrue(System.nanoTime() - started >= 1_000_000_000L, "it waited the timeout for the holder to go");
        assertFalse(second.holds());
        // A restart under the same id waits for the earlier registration to go, then holds the lease.
        java.util.concurrent.CompletableFuture<Void> acquired = new java.util.concurrent.CompletableFuture<>();
        Thread acquirer = new Thread(() -> {
            try {
                second.acquire(10_000);
                acquired.complete(null);
            } catch (Exception | Error failure) {
                acquired.completeExceptionally(failure);
            }
        });
        acquirer.start();
        await(() -> acquirer.getState() == Thread.State.TIMED_WAITING && java.util.Arrays.stream(acquirer.getStackTrace())
                .anyMatch(f -> f.getClassName().equals(java.util.concurrent.CountDownLatch.class.getName())),
                5_000, "the second lease waiting for the first's registration to go");
        first.close();
        acquired.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(second.holds());
        assertFalse(first.holds());
    }

    @Test
    void anExpiredSessionLosesTheLeaseForGood() throws Exception {
        CuratorFramework c = client(10_000);
        Events events = new Events();
        LeaseKeeper lease = new LeaseKeeper(c, ZkPaths.defaults(), "otm-2", new byte[0], events);
        lease.acquire(5_000);
        ZkSessions.expire(c, zk.getConnectString());
        assertNull(c.checkExists().forPath(ZkPaths.defaults().otm("otm-2")), "the server dropped the ephemeral node");
        await(lease::lost, 10_000, "lease lost after session expiry");
        assertFalse(lease.holds());
        await(() -> events.seen.contains("lost"), 5_000, "the listener told of the loss");
        // Curator reconnects with a new session, but the lease stays lost and the znode is gone.
        await(() -> c.getZookeeperClient().isConnected(), 10_000, "reconnected");
        assertFalse(lease.holds());
        assertNull(c.checkExists().forPath(ZkPaths.defaults().otm("otm-2")));
    }

    @Test
    void aConnectionOutageSuspendsServiceAndTheSameSessionResumesIt() throws Exception {
        CuratorFramework c = client(20_000);
        Events events = new Events();
        LeaseKeeper lease = new LeaseKeeper(c, ZkPaths.defaults(), "otm-3", new byte[0], events);
        lease.acquire(5_000);
        zk.stop();
        await(() -> !lease.holds(), 15_000, "suspended when ZooKeeper is unreachable");
        assertFalse(lease.lost());
        zk.restart();
        await(lease::holds, 15_000, "resumed on reconnect with the same session");
        // The listener is told just after the state changes: wait for it rather than race it.
        await(() -> events.seen.contains("resumed"), 5_000, "the listener told of the resumption");
        assertEquals(List.of("suspended", "resumed"), events.seen);
        assertNotNull(c.checkExists().forPath(ZkPaths.defaults().otm("otm-3")));
    }
}
