package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
        Files.createDirectories(dir.resolve("version-2"));
        Files.writeString(dir.resolve("version-2").resolve("log.1"), "not a snapshot");
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
            try {
                ClusterTpccTarget.awaitZooKeeperLoaded(dir, () -> true, 10_000, dir.resolve("zookeeper.log"));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        // A log but no snapshot: it goes on waiting.
        assertThrows(TimeoutException.class, () -> waiting.get(250, TimeUnit.MILLISECONDS),
                "returned before the snapshot was written");
        Files.writeString(dir.resolve("version-2").resolve("snapshot.0"), "x");
        waiting.get(10, TimeUnit.SECONDS);
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
