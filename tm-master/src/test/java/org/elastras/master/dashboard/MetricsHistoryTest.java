package org.elastras.master.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.junit.jupiter.api.Test;

/** Rates from heartbeat counters, with scripted reports and times: no sleeps, no clock. */
class MetricsHistoryTest {

    private static OtmLoad load(PartitionLoad... partitions) {
        return new OtmLoad(0.5, 100, 1_000, List.of(partitions));
    }

    @Test
    void theFirstReportIsOnlyABaseline() {
        MetricsHistory h = new MetricsHistory(10);
        h.record(1_000, Map.of("otm-1", load(new PartitionLoad(1, 500, 5))), 10, 5);
        assertNull(h.latest());
        assertTrue(h.samples().isEmpty());
        assertTrue(h.hottest(10).isEmpty());
    }

    @Test
    void ratesAreCounterDeltasOverTheInterval() {
        MetricsHistory h = new MetricsHistory(10);
        h.record(1_000, Map.of("otm-1", load(new PartitionLoad(1, 100, 0), new PartitionLoad(2, 10, 0)),
                "otm-2", load(new PartitionLoad(3, 0, 0))), 10, 5);
        h.record(3_000, Map.of("otm-1", load(new PartitionLoad(1, 300, 4), new PartitionLoad(2, 30, 0)),
                "otm-2", load(new PartitionLoad(3, 40, 2))), 90, 80);
        MetricsHistory.Sample s = h.latest();
        assertEquals(3_000, s.atMs());
        assertEquals((200 + 20 + 40) / 2.0, s.commitsPerSecond(), 1e-9);
        assertEquals((4 + 2) / 2.0, s.abortsPerSecond(), 1e-9);
        assertEquals(110.0, s.commitsPerSecondByOtm().get("otm-1"), 1e-9);
        assertEquals(20.0, s.commitsPerSecondByOtm().get("otm-2"), 1e-9);
        assertEquals(90, s.issuedCts());
        assertEquals(80, s.snapshotCts());
        List<MetricsHistory.PartitionRate> hot = h.hottest(2);
        assertEquals(List.of(1L, 3L), hot.stream().map(MetricsHistory.PartitionRate::partitionId).toList());
        assertEquals(100.0, hot.get(0).commitsPerSecond(), 1e-9);
        assertEquals(330, h.otmRates().get("otm-1").commits());
    }

    @Test
    void aMovedOrResetPartitionInventsNoRate() {
        MetricsHistory h = new MetricsHistory(10);
        h.record(0, Map.of("otm-1", load(new PartitionLoad(1, 1_000, 0)), "otm-2", load()), 0, 0);
        // Partition 1 now reported by otm-2 (moved: counts from its open there), and otm-1 restarted.
        h.record(1_000, Map.of("otm-1", load(), "otm-2", load(new PartitionLoad(1, 700, 0))), 0, 0);
        assertEquals(0.0, h.latest().commitsPerSecond(), 1e-9);
        h.record(2_000, Map.of("otm-1", load(), "otm-2", load(new PartitionLoad(1, 650, 0))), 0, 0);
        assertEquals(0.0, h.latest().commitsPerSecond(), 1e-9, "a counter that went down counts as zero");
        h.record(3_000, Map.of("otm-1", load(), "otm-2", load(new PartitionLoad(1, 700, 0))), 0, 0);
        assertEquals(50.0, h.latest().commitsPerSecond(), 1e-9);
    }

    @Test
    void theSeriesKeepsOnlyTheNewestSamples() {
        MetricsHistory h = new MetricsHistory(3);
        for (int i = 0; i <= 10; i++) {
            h.record(i * 1_000L, Map.of("otm-1", load(new PartitionLoad(1, i * 10L, 0))), i, i);
        }
        List<MetricsHistory.Sample> samples = h.samples();
        assertEquals(3, samples.size());
        assertEquals(List.of(8_000L, 9_000L, 10_000L), samples.stream().map(MetricsHistory.Sample::atMs).toList());
        samples.forEach(s -> assertEquals(10.0, s.commitsPerSecond(), 1e-9));
    }

    @Test
    void aReportThatIsNotLaterOnlyMovesTheBaseline() {
        MetricsHistory h = new MetricsHistory(3);
        h.record(1_000, Map.of("otm-1", load(new PartitionLoad(1, 0, 0))), 0, 0);
        h.record(1_000, Map.of("otm-1", load(new PartitionLoad(1, 50, 0))), 0, 0);
        assertNull(h.latest());
        assertThrows(IllegalArgumentException.class, () -> new MetricsHistory(1));
        assertThrows(IllegalArgumentException.class, () -> h.hottest(-1));
    }
}
