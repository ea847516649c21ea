package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.wal.WalNames;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a collection round keeps without reading a manifest: the logs of an OTM under recovery, a
 * log whose fence has no fence point yet, and every live log; the rest goes if no manifest names
 * it (here no partition has one). FencedLogsGoOnceNoPartitionNeedsThemTest covers a named log.
 */
class FencedLogCollectorTest {

    @TempDir
    Path temp;

    private static void log(Dfs dfs, String walId) throws IOException {
        try (WalWriter writer = WalWriter.open(dfs, WalNames.liveDirectory(walId), WalOptions.DEFAULT)) {
            writer.append(new WalRecord(1, List.of(new WalRecord.Mutation(5, walId.getBytes(), new byte[10])))).join();
        }
    }

    @Test
    void keepsRecoveringUnfinishedAndLiveLogsAndDeletesTheRest() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            for (String walId : List.of("otm-1@a", "otm-1@b", "otm-2@a", "otm-3@a", "otm-4@a")) {
                log(dfs, walId);
            }
            WalFence.fence(dfs, "otm-1");
            WalFence.fence(dfs, "otm-2");
            // otm-3's fence renamed its log and died before the fence point.
            dfs.mkdirs(WalNames.FENCED_ROOT);
            dfs.rename(WalNames.liveDirectory("otm-3@a"), WalNames.fencedDirectory("otm-3@a"));

            FencedLogCollector.Round round = FencedLogCollector.collect(dfs, List.of("data/BANK/3", "data/SHOP/4"),
                    "otm-2"::equals);
            assertEquals(List.of("otm-1@a", "otm-1@b"), round.deleted());
            assertEquals(List.of("otm-2@a", "otm-3@a"), round.kept().stream().sorted().toList());
            assertEquals(2, round.manifestsRead());
            assertEquals(List.of("otm-2@a", "otm-3@a"), dfs.list(WalNames.FENCED_ROOT));
            assertEquals(List.of("otm-4@a"), dfs.list(WalNames.LIVE_ROOT), "a live log is not the collector's");

            // Nothing could go: no manifest is read.
            FencedLogCollector.Round idle = FencedLogCollector.collect(dfs, List.of("data/BANK/3"), "otm-2"::equals);
            assertTrue(idle.deleted().isEmpty());
            assertEquals(0, idle.manifestsRead());
            assertFalse(dfs.exists(WalNames.fencedDirectory("otm-1@a")));
        }
    }
}
