package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sixteen threads appending at once are all acknowledged, every record is replayed exactly once at
 * the position its future reported, and group commit put more than one record in a batch.
 */
class WalConcurrentAppendersTest {

    private static final int THREADS = 16;
    private static final int RECORDS_PER_THREAD = 250;

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void concurrentAppendersAreAllAcknowledgedAndReplayedExactlyOnce(DfsKind kind) throws Exception {
        try (Dfs dfs = kind.open(temp)) {
            Map<String, WalPosition> acknowledged = new HashMap<>();
            WalMetrics metrics;
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT.withSegmentBytesMax(256 * 1024))) {
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    List<Future<Map<String, WalPosition>>> results = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        int thread = t;
                        results.add(pool.submit(() -> {
                            // Each thread keeps a few commits in flight, as an OTM's sessions do.
                            Map<String, WalPosition> mine = new HashMap<>();
                            List<CompletableFuture<WalPosition>> window = new ArrayList<>();
                            List<String> tags = new ArrayList<>();
                            for (int i = 0; i < RECORDS_PER_THREAD; i++) {
                                String tag = "t" + thread + "-" + i;
                                window.add(writer.append(WalTesting.tagged(thread, tag, 150)));
                                tags.add(tag);
                                if (window.size() == 4 || i == RECORDS_PER_THREAD - 1) {
                                    for (int w = 0; w < window.size(); w++) {
                                        mine.put(tags.get(w), window.get(w).get(30, TimeUnit.SECONDS));
                                    }
                                    window.clear();
                                    tags.clear();
                                }
                            }
                            return mine;
                        }));
                    }
                    for (Future<Map<String, WalPosition>> result : results) {
                        acknowledged.putAll(result.get(60, TimeUnit.SECONDS));
                    }
                } finally {
                    pool.shutdownNow();
                }
                metrics = writer.metrics();
            }
            assertEquals(THREADS * RECORDS_PER_THREAD, acknowledged.size());

            Map<String, WalPosition> replayed = new HashMap<>();
            WalPosition previous = null;
            for (WalEntry entry : WalReader.readAll(dfs, "wal", WalPosition.START)) {
                assertNull(replayed.put(WalTesting.tagOf(entry.record()), entry.position()), "replayed twice");
                assertTrue(previous == null || previous.compareTo(entry.position()) < 0, "log order");
                previous = entry.position();
            }
            assertEquals(acknowledged, replayed);

            assertEquals(THREADS * RECORDS_PER_THREAD, metrics.records());
            assertTrue(metrics.batches() < metrics.records(), "group commit batched records: " + metrics);
            assertTrue(metrics.batchRecordsMax() > 1, "some batch held several records: " + metrics);
            assertTrue(metrics.syncLatencyMicrosMax() >= metrics.syncLatencyMicrosP50(), metrics.toString());
            System.out.println("concurrent appenders on " + kind + ": " + metrics);
        }
    }
}
