package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.elastras.master.balance.LoadWindow;
import org.elastras.master.balance.LoadWindowConfig;
import org.elastras.master.balance.WindowLoad;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: transactions on a real OTM show up at the master as the partition's begins,
 * commits and commit latency, carried by the heartbeats over the wire, and a {@link LoadWindow}
 * fed with what the master received turns them into latency percentiles.
 */
class HeartbeatsCarryPartitionLoadToTheMasterTest {

    @TempDir
    Path temp;

    @Test
    void committedCallsArriveAsBeginsCommitsAndLatency() throws Exception {
        try (ClientTestCluster cluster = new ClientTestCluster(temp, List.of("otm-1"));
                ElasTrasClient client = ElasTrasClient.connect(cluster.connectString())) {
            long partition = client.locate("LEDGER", List.of(50)).partitionId();
            int calls = 20;
            for (int i = 0; i < calls; i++) {
                client.call("LEDGER", "increment", List.of(50), List.of(50));
            }
            LoadWindow window = new LoadWindow(new LoadWindowConfig(60_000, 1_000, 100));
            OtmLoad previous = null;
            PartitionLoad seen = null;
            long measured = 0;
            int reportsAfterAllCommits = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                OtmLoad load = cluster.master.loads().get("otm-1");
                if (load != null && load != previous) {
                    previous = load;
                    window.report("otm-1", System.nanoTime() / 1_000_000, load);
                    seen = load.partitions().stream().filter(p -> p.partitionId() == partition).findFirst().orElse(null);
                    WindowLoad w = window.view(System.nanoTime() / 1_000_000 + 1_000).partition(partition);
                    measured = w == null ? 0 : w.commitsMeasured();
                    // Polling can miss a report (and its latencies); one report past the last commit is enough.
                    if (seen != null && seen.commits() >= calls && (measured >= calls || ++reportsAfterAllCommits > 1)) {
                        break;
                    }
                }
                Thread.sleep(50);
            }
            assertTrue(seen != null && seen.commits() >= calls, "the master saw " + seen);
            assertTrue(seen.begins() >= seen.commits(), "every commit began: " + seen);
            assertTrue(seen.storeBytes() > 0, "the written rows take room: " + seen);
            assertTrue(measured > 0 && measured <= calls, "one latency per committed call at most: " + measured);
            WindowLoad w = window.view(System.nanoTime() / 1_000_000 + 1_000).partition(partition);
            assertTrue(w.commitLatencyP50Micros() > 0 && w.commitLatencyP50Micros() <= w.commitLatencyP99Micros()
                    && w.commitLatencyP99Micros() <= w.commitLatencyMaxMicros(), w.toString());
        }
    }
}
