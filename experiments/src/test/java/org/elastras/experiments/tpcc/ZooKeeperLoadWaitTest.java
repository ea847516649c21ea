package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster launcher connects to its ZooKeeper child only once the server has loaded its
 * database (its first snapshot is on disk), and says so when the server exits or never gets there.
 */
class ZooKeeperLoadWaitTest {

    @TempDir
    Path dir;

    @Test
    void itWaitsForTheFirstSnapshot() throws Exception {
        Thread writer = new Thread(() -> {
            try {
                Thread.sleep(150);
                Files.createDirectories(dir.resolve("version-2"));
                Files.writeString(dir.resolve("version-2").resolve("log.1"), "not a snapshot");
                Thread.sleep(100);
                Files.writeString(dir.resolve("version-2").resolve("snapshot.0"), "x");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long started = System.nanoTime();
        writer.start();
        ClusterTpccTarget.awaitZooKeeperLoaded(dir, () -> true, 10_000, dir.resolve("zookeeper.log"));
        long ms = (System.nanoTime() - started) / 1_000_000;
        writer.join();
        assertTrue(ms >= 240, "returned after " + ms + " ms, before the snapshot was written");
    }

    @Test
    void aServerThatNeverLoadsOrExitsIsReportedWithItsLog() {
        IOException never = assertThrows(IOException.class,
                () -> ClusterTpccTarget.awaitZooKeeperLoaded(dir, () -> true, 200, dir.resolve("zookeeper.log")));
        assertTrue(never.getMessage().contains("did not load") && never.getMessage().contains("zookeeper.log"),
                never.getMessage());
        IOException exited = assertThrows(IOException.class,
                () -> ClusterTpccTarget.awaitZooKeeperLoaded(dir, () -> false, 10_000, dir.resolve("zookeeper.log")));
        assertTrue(exited.getMessage().contains("exited"), exited.getMessage());
    }
}
