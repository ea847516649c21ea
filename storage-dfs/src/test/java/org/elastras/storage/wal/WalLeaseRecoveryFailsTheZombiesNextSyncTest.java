package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.apache.hadoop.conf.Configuration;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.HdfsDfs;
import org.elastras.storage.dfs.MiniHdfs;
import org.junit.jupiter.api.Test;

/**
 * On HDFS the fence recovers the lease of the last segment: a zombie writer's next sync then fails
 * even if it does not check the fence itself (ROLL_ONLY) and its directory was not renamed, and
 * the fence point holds every record it acknowledged.
 */
class WalLeaseRecoveryFailsTheZombiesNextSyncTest {

    @Test
    void afterLeaseRecoveryTheZombiesNextBatchFailsAndItsAcknowledgedRecordsAreInsideTheFencePoint()
            throws IOException {
        try (HdfsDfs zombieDfs = MiniHdfs.shared().newDfs();
                Dfs masterDfs = HdfsDfs.open(zombieDfs.uri(), new Configuration(MiniHdfs.shared().configuration()))) {
            WalWriter zombie = WalWriter.open(zombieDfs, "wal",
                    WalOptions.DEFAULT.withFenceCheck(WalFenceCheck.ROLL_ONLY));
            List<String> acknowledged = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                zombie.append(WalTesting.tagged(1, "before-" + i, 100)).join();
                acknowledged.add("before-" + i);
            }

            WalFenceMarker.Point point = WalFenceMarker.mark(masterDfs, "wal", 60_000);
            assertEquals(1, point.segment());

            CompletionException failed = assertThrows(CompletionException.class,
                    () -> zombie.append(WalTesting.tagged(1, "after", 100)).join());
            assertInstanceOf(IOException.class, failed.getCause());
            assertThrows(IOException.class, zombie::close);

            List<String> replayed = new ArrayList<>();
            for (WalEntry entry : WalReader.readAll(masterDfs, "wal", WalPosition.START)) {
                replayed.add(WalTesting.tagOf(entry.record()));
            }
            assertEquals(acknowledged, replayed);
            assertEquals(point.segmentBytes(), masterDfs.length(WalTesting.segmentPath("wal", 1)),
                    "the zombie could not extend the recovered file");
        }
    }
}
