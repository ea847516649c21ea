package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master that abdicates (another master wrote its catalog rows, or advanced the timestamp
 * high-water mark) leaves the election and, a few seconds later, joins it again as a standby: a
 * torture run whose active master abdicated over a deposed master's late write lost its only
 * standby that way, and then every master once the active one was killed.
 */
class AnAbdicatedMasterJoinsTheElectionAgainTest {

    @TempDir
    Path temp;

    private static void await(String what, BooleanSupplier condition, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(10);
        }
    }

    @Test
    void anAbdicatedMasterIsAStandbyAgainAndTakesOverWhenTheNextOneStops() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                Master first = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri()))) {
            // Elected: its timestamp service runs (the catalog needs OTMs; none here).
            await("master-1 was never elected", () -> first.snapshotCts() >= 0, 20);
            Master second = Master.start(MasterConfig.defaults("master-2", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri()));
            try {
                assertTrue(second.snapshotCts() < 0, "master-2 waits as a standby");
                first.abdicateForTest("test: another master wrote this master's rows");
                await("master-2 did not take over", () -> second.snapshotCts() >= 0 && first.snapshotCts() < 0, 20);
            } finally {
                second.close();
            }
            // master-1 left the election when it abdicated; only its rejoin lets it take over now.
            await("the abdicated master never became active again", () -> first.snapshotCts() >= 0,
                    20 + Master.REJOIN_DELAY_MS / 1000);
        }
    }
}
