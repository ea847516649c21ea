package org.elastras.experiments.xpartition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-partition benchmark, run tiny (2 threads, one 2 s phase per mode) on its real local
 * cluster: both modes commit transfers, the figures are ordered as figures must be, the total is
 * unchanged, and both result files are written. Not a measurement; takes about 20 s.
 */
class CrossPartitionBenchmarkRunsTest {

    @TempDir
    Path temp;

    @Test
    void aTinyRunCommitsBothKindsOfTransferAndKeepsTheTotal() throws Exception {
        CrossPartitionBenchmark.Options options = CrossPartitionBenchmark.parse(new String[] {"--threads", "2", "--seconds", "2",
            "--rounds", "1", "--warmup-seconds", "0", "--accounts", "50", "--out", temp.toString()});

        CrossPartitionBenchmark.Result result = CrossPartitionBenchmark.run(options);
        System.out.print(result.render());

        assertEquals(result.totalExpected(), result.totalRead(), "the total of every balance");
        assertEquals(2L * 50 * CrossPartitionBenchmark.OPENING_BALANCE, result.totalExpected());
        for (TransferMode mode : TransferMode.values()) {
            PhaseFigures f = result.figures().get(mode);
            assertTrue(f.committed() > 0, mode + " committed nothing");
            assertEquals(f.committed(), f.latencyMicros().getTotalCount(), mode + ": one latency per committed transfer");
            assertTrue(f.latencyMsAtPercentile(50) > 0, mode + " p50");
            assertTrue(f.latencyMsAtPercentile(50) <= f.latencyMsAtPercentile(99), mode + " p50 <= p99");
            assertTrue(f.latencyMsAtPercentile(99) <= f.latencyMsMax(), mode + " p99 <= max");
            // Each thread runs its transfers one after another, none faster than the fastest.
            double fastestMs = f.latencyMicros().getMinValue() / 1_000.0;
            assertTrue(f.transfersPerSecond() <= 2 * 1_000.0 / fastestMs * 1.01, mode + ": " + f.transfersPerSecond()
                    + " per second with 2 threads, none faster than " + fastestMs + " ms");
            assertEquals(0, f.failed(), mode + " failures");
        }
        assertTrue(result.placement().contains("otm-1") && result.placement().contains("otm-2"),
                "the two partitions on two OTMs: " + result.placement());
        assertTrue(result.sane());
        String json = Files.readString(temp.resolve("xpartition.json"));
        assertTrue(json.contains("\"cross-partition\"") && json.contains("\"single-partition\""), json);
        assertTrue(Files.readString(temp.resolve("xpartition.txt")).contains("cross/single"));
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CrossPartitionBenchmark.parse(new String[] {"--otms", "1"}));
        assertTrue(e.getMessage().contains("--otms"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CrossPartitionBenchmark.parse(new String[] {"--threads"}));
        assertThrows(IllegalArgumentException.class, () -> CrossPartitionBenchmark.parse(new String[] {"--speed", "3"}));
    }
}
