package org.elastras.master.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.elastras.client.protocol.LatencyHistogram;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.junit.jupiter.api.Test;

/** Rates and latency from heartbeat reports, with scripted reports and times: no sleeps, no clock. */
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

    /** A histogram of {@code count} commits of {@code micros} each. */
    private static LatencyHistogram commits(long count, long micros) {
        long[] buckets = new long[LatencyHistogram.BUCKETS];
        buckets[LatencyHistogram.bucketOf(micros)] = count;
        return LatencyHistogram.of(buckets, micros);
    }

    private static PartitionLoad timed(long id, long commits, LatencyHistogram latency) {
        return new PartitionLoad(id, commits, 0, commits, 4_096, latency);
    }

    @Test
    void latencyMergesTheHistogramsOfEveryPartitionAndOtm() {
        MetricsHistory h = new MetricsHistory(10);
        h.record(0, Map.of("otm-1", load(timed(1, 0, null)), "otm-2", load(timed(2, 0, null))), 0, 0);
        // otm-1: 98 fast commits on partition 1 and 1 slow one on partition 3; otm-2: 1 slower one.
        h.record(1_000, Map.of("otm-1", load(timed(1, 98, commits(98, 100)), timed(3, 1, commits(1, 50_000))),
                "otm-2", load(timed(2, 1, commits(1, 9_000)))), 0, 0);
        MetricsHistory.Sample s = h.latest();
        MetricsHistory.Latency cluster = s.latency();
        assertEquals(100, cluster.commits());
        // Rounded up to the top of its bucket ([96, 112) µs): at most 25% high, never low.
        assertEquals(111, cluster.p50Micros());
        assertTrue(cluster.p99Micros() >= 9_000 && cluster.p99Micros() < 9_000 * 1.25, cluster.toString());
        assertEquals(50_000, cluster.maxMicros());
        assertEquals(99, s.latencyByOtm().get("otm-1").commits());
        assertEquals(50_000, s.latencyByOtm().get("otm-1").maxMicros());
        assertEquals(9_000, s.latencyByOtm().get("otm-2").p50Micros());
        assertEquals(99.0, s.beginsPerSecond(), 1e-9, "partition 3 is new: a baseline, no rate yet");
        MetricsHistory.PartitionRate p3 = h.partitionRates().stream().filter(r -> r.partitionId() == 3).findFirst()
                .orElseThrow();
        assertEquals(50_000, p3.latency().p99Micros());
        assertEquals(4_096, p3.storeBytes());
        assertEquals(99, h.otmRates().get("otm-1").latency().commits());
    }

    @Test
    void aReportSeenAgainAddsNoLatency() {
        MetricsHistory h = new MetricsHistory(10);
        OtmLoad first = load(timed(1, 10, commits(10, 500)));
        h.record(0, Map.of("otm-1", load(timed(1, 0, null))), 0, 0);
        h.record(1_000, Map.of("otm-1", first), 0, 0);
        assertEquals(10, h.latest().latency().commits());
        // No new heartbeat between two samples: the master still holds the same report object.
        h.record(2_000, Map.of("otm-1", first), 0, 0);
        assertNull(h.latest().latency(), "no new report: no latency, not the old one again");
        assertTrue(h.latest().latencyByOtm().isEmpty());
        assertEquals(0.0, h.latest().commitsPerSecond(), 1e-9);
        // An equal but new report does count.
        h.record(3_000, Map.of("otm-1", load(timed(1, 10, commits(10, 500)))), 0, 0);
        assertEquals(10, h.latest().latency().commits());
        List<MetricsHistory.LatencyTotal> totals = h.latencyTotals();
        assertEquals(1, totals.size());
        assertEquals(20, totals.get(0).count(), "the cumulative histogram counted each report once");
        assertEquals(20, totals.get(0).buckets()[LatencyHistogram.bucketOf(500)]);
        // An OTM that no longer reports leaves the totals.
        h.record(4_000, Map.of(), 0, 0);
        assertTrue(h.latencyTotals().isEmpty());
    }

    @Test
    void metricsExposeTheLatencyAsACumulativeHistogramInSeconds() {
        MetricsHistory h = new MetricsHistory(10);
        h.record(0, Map.of("otm-1", load()), 0, 0);
        h.record(1_000, Map.of("otm-1", load(timed(1, 3, commits(2, 100)), timed(2, 1, commits(1, 3_000)))), 0, 0);
        String text = PrometheusText.render("m", true, List.of(), List.of(), Map.of(), -1, -1, 0,
                new PrometheusText.Extras(List.of(), 0, List.of(), h.latencyTotals()));
        assertTrue(text.contains("# TYPE elastras_otm_commit_latency_seconds histogram\n"), text);
        // 100 µs < 128 µs; 3,000 µs < 4,096 µs.
        assertTrue(text.contains("elastras_otm_commit_latency_seconds_bucket{otm=\"otm-1\",le=\"0.000128\"} 2\n"), text);
        assertTrue(text.contains("elastras_otm_commit_latency_seconds_bucket{otm=\"otm-1\",le=\"0.002048\"} 2\n"), text);
        assertTrue(text.contains("elastras_otm_commit_latency_seconds_bucket{otm=\"otm-1\",le=\"0.004096\"} 3\n"), text);
        assertTrue(text.contains("elastras_otm_commit_latency_seconds_bucket{otm=\"otm-1\",le=\"+Inf\"} 3\n"), text);
        assertTrue(text.contains("elastras_otm_commit_latency_seconds_count{otm=\"otm-1\"} 3\n"), text);
    }
}
