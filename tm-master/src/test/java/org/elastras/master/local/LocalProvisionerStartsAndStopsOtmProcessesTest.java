package org.elastras.master.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.master.balance.ProvisioningException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local provisioner really starts an OTM process that registers in an embedded ZooKeeper,
 * refuses requests beyond its bound and for OTMs it did not start, and really stops the process,
 * whose registration then goes away.
 */
class LocalProvisionerStartsAndStopsOtmProcessesTest {

    @TempDir
    Path directory;

    @Test
    void anAddedOtmRegistersAndARemovedOneIsGone() throws Exception {
        Path dfs = Files.createDirectories(directory.resolve("dfs"));
        ZkPaths paths = ZkPaths.defaults();
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(directory.resolve("zk"));
                CuratorFramework curator = CuratorFrameworkFactory.newClient(zk.connectString(),
                        new ExponentialBackoffRetry(100, 5));
                LocalProvisioner provisioner = new LocalProvisioner(System.getProperty("java.class.path"),
                        zk.connectString(), dfs.toUri(), 128, directory.resolve("logs"), "otm-p", 1, 1)) {
            curator.start();
            assertTrue(curator.blockUntilConnected(30, TimeUnit.SECONDS));

            CompletableFuture<String> adding = provisioner.addOtm();
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> provisioner.addOtm().get(5, TimeUnit.SECONDS), "a second request beyond pendingMax 1");
            assertTrue(refused.getCause() instanceof ProvisioningException, refused.toString());
            assertTrue(refused.getCause().getMessage().contains("1 requests are under way"), refused.getCause().getMessage());

            String id = adding.get(180, TimeUnit.SECONDS);
            assertEquals("otm-p1", id);
            assertNotNull(curator.checkExists().forPath(paths.otm(id)), "the new OTM holds its lease");
            assertEquals(List.of("otm-p1"), provisioner.running());
            long pid = provisioner.pid(id);
            assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
            assertEquals(0, provisioner.pending());

            ExecutionException unknown = assertThrows(ExecutionException.class,
                    () -> provisioner.removeOtm("otm-9").get(5, TimeUnit.SECONDS));
            assertTrue(unknown.getCause().getMessage().contains("was not started by this provisioner"),
                    unknown.getCause().getMessage());

            provisioner.removeOtm(id).get(60, TimeUnit.SECONDS);
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the process ended");
            assertEquals(List.of(), provisioner.running());
            assertNull(curator.checkExists().forPath(paths.otm(id)), "a clean stop gives the lease up at once");
            assertEquals(-1, provisioner.pid(id));
        }
    }
}
