package org.elastras.master.balance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.elastras.client.protocol.LatencyHistogram;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.junit.jupiter.api.Test;

/**
 * Cumulative counters from heartbeats become exact rates per partition and per OTM over the
 * window: steady load, lost reports, counters that go down, a partition moving between OTMs, a
 * spike confined to its slices, latency percentiles, expiry and the bound on partitions.
 */
class LoadWindowTest {

    /** 30 s window of six 5 s slices. */
    private final LoadWindow window = new LoadWindow(LoadWindowConfig.DEFAULT);

    /** A partition whose counters grew at {@code perSecond} for {@code ms} (90% commits, 10% aborts). */
    static PartitionLoad partition(long id, double perSecond, long ms) {
        long begins = Math.round(perSecond * ms / 1_000);
        long aborts = begins / 10;
        return new PartitionLoad(id, begins - aborts, aborts, begins, 1_000 * id, null);
    }

    static OtmLoad otm(PartitionLoad... partitions) {
        return new OtmLoad(0.5, 100, 1_000, List.of(partitions));
    }

    private static double[] bySlice(WindowLoad w) {
        double[] out = new double[w.slices()];
        for (int i = 0; i < out.length; i++) {
            out[i] = w.requestsPerSecondInSlice(i);
        }
        return out;
    }

    @Test
    void steadyCountersBecomeExactRatesPerPartitionAndPerOtm() {
        for (long t = 0; t <= 30_000; t += 1_000) {
            window.report("otm-a", t, otm(partition(1, 100, t), partition(2, 10, t)));
        }
        LoadView view = window.view(30_000);
        WindowLoad p1 = view.partition(1);
        assertEquals(100.0, p1.requestsPerSecond(), 1e-9);
        assertEquals(90.0, p1.commitsPerSecond(), 1e-9);
        assertEquals(10.0, p1.abortsPerSecond(), 1e-9);
        assertArrayEquals(new double[] {100, 100, 100, 100, 100, 100}, bySlice(p1), 1e-9);
        assertEquals(30_000, p1.coveredMs());
        assertEquals(1_000, p1.storeBytes());
        assertEquals(-1, p1.cpuLoad());
        WindowLoad a = view.otms().get("otm-a");
        assertEquals(110.0, a.requestsPerSecond(), 1e-9);
        assertEquals(0.5, a.cpuLoad(), 1e-9);
        assertEquals(100, a.heapUsedBytes());
        assertEquals(3_000, a.storeBytes());
        assertTrue(a.everySliceKnown());
    }

    @Test
    void lostReportsSpreadTheirCountsAndChangeNoRate() {
        for (long t = 0; t <= 30_000; t += 1_000) {
            if (t % 7_000 == 3_000 || t == 4_000) {
                continue; // lost
            }
            window.report("otm-a", t, otm(partition(1, 100, t)));
        }
        WindowLoad p1 = window.view(30_000).partition(1);
        assertArrayEquals(new double[] {100, 100, 100, 100, 100, 100}, bySlice(p1), 1e-9);
        assertEquals(30_000, p1.coveredMs());
    }

    @Test
    void aCounterThatGoesDownIsANewBaselineNotANegativeRate() {
        for (long t = 0; t <= 30_000; t += 1_000) {
            // Reopened at 12 s: its counters start again from zero.
            long counted = t < 12_000 ? t : t - 12_000;
            window.report("otm-a", t, otm(partition(1, 100, counted)));
        }
        WindowLoad p1 = window.view(30_000).partition(1);
        assertEquals(29_000, p1.coveredMs());
        assertEquals(100.0, p1.requestsPerSecond(), 1e-9);
        assertArrayEquals(new double[] {100, 100, 100, 100, 100, 100}, bySlice(p1), 1e-9);
    }

    @Test
    void aPartitionsLoadFollowsItToItsNewOtm() {
        for (long t = 0; t <= 30_000; t += 1_000) {
            if (t <= 14_000) {
                window.report("otm-a", t, otm(partition(1, 100, t), partition(2, 10, t)));
            } else {
                window.report("otm-a", t, otm(partition(2, 10, t)));
            }
            // otm-b starts at 0 with nothing; opens partition 1 at 16 s, its counters from 0 there.
            window.report("otm-b", t, t < 16_000 ? otm() : otm(partition(1, 100, t - 16_000)));
        }
        LoadView view = window.view(30_000);
        WindowLoad p1 = view.partition(1);
        // [14 s, 15 s): otm-a no longer lists it; [15 s, 16 s): otm-b's first report has it as a baseline.
        assertEquals(28_000, p1.coveredMs());
        assertEquals(100.0, p1.requestsPerSecond(), 1e-9);
        assertArrayEquals(new double[] {100, 100, 100, 100, 100, 100}, bySlice(p1), 1e-9);
        // [10 s, 15 s) on otm-a: four seconds with it (110/s), one without (10/s).
        assertArrayEquals(new double[] {110, 110, 90, 10, 10, 10}, bySlice(view.otms().get("otm-a")), 1e-9);
        assertArrayEquals(new double[] {0, 0, 0, 80, 100, 100}, bySlice(view.otms().get("otm-b")), 1e-9);
    }

    @Test
    void aShortSpikeLiftsOnlyTheSlicesItFallsIn() {
        long begins = 0;
        for (long t = 0; t <= 30_000; t += 1_000) {
            window.report("otm-a", t, otm(new PartitionLoad(1, begins, 0, begins, 0, null)));
            begins += t >= 12_000 && t < 15_000 ? 1_000 : 100; // 1000/s during [12 s, 15 s)
        }
        WindowLoad p1 = window.view(30_000).partition(1);
        assertArrayEquals(new double[] {100, 100, 640, 100, 100, 100}, bySlice(p1), 1e-9);
        assertEquals(190.0, p1.requestsPerSecond(), 1e-9);
    }

    @Test
    void latencyPercentilesComeFromEveryHistogramInTheWindow() {
        for (long t = 0; t <= 30_000; t += 1_000) {
            long[] buckets = new long[LatencyHistogram.BUCKETS];
            buckets[LatencyHistogram.bucketOf(1_000)] = 99; // [896, 1024)
            if (t == 20_000) {
                buckets[LatencyHistogram.bucketOf(100_000)] = 31; // [98304, 114688)
            }
            LatencyHistogram h = LatencyHistogram.of(buckets, t == 20_000 ? 100_000 : 1_000);
            window.report("otm-a", t, otm(new PartitionLoad(1, t, 0, t, 0, h)));
        }
        WindowLoad p1 = window.view(30_000).partition(1);
        // Reports at 0..29 s are in the window's slices; the one at 30 s is in the slice in progress.
        assertEquals(30 * 99 + 31, p1.commitsMeasured());
        assertEquals(1_023, p1.commitLatencyP50Micros(), "the largest value of the bucket [896, 1024)");
        assertEquals(100_000, p1.commitLatencyP99Micros());
        assertEquals(100_000, p1.commitLatencyMaxMicros());
        assertEquals(100_000, window.view(30_000).otms().get("otm-a").commitLatencyMaxMicros());
        // Once the slow interval left the window, the 99th percentile is the bucket of 1000 µs again.
        for (long t = 31_000; t <= 56_000; t += 1_000) {
            window.report("otm-a", t, otm(new PartitionLoad(1, t, 0, t, 0,
                    LatencyHistogram.of(single(LatencyHistogram.bucketOf(1_000), 10), 1_000))));
        }
        assertEquals(1_000, window.view(56_000).partition(1).commitLatencyP99Micros(), "capped by the maximum");
    }

    private static long[] single(int bucket, long count) {
        long[] b = new long[LatencyHistogram.BUCKETS];
        b[bucket] = count;
        return b;
    }

    @Test
    void anIntervalLongerThanTheWindowIsOnlyABaselineAndOldLoadExpires() {
        window.report("otm-a", 0, otm(partition(1, 100, 0)));
        window.report("otm-a", 40_000, otm(partition(1, 100, 40_000)));
        assertNull(window.view(40_000).partition(1), "a 40 s silence measures nothing");

        window.report("otm-a", 41_000, otm(partition(1, 100, 41_000)));
        assertEquals(100.0, window.view(45_000).partition(1).requestsPerSecond(), 1e-9);
        // The OTM stops listing it; 30 s later it is forgotten.
        for (long t = 42_000; t <= 80_000; t += 1_000) {
            window.report("otm-a", t, otm());
        }
        assertNull(window.view(80_000).partition(1));
        assertFalse(window.view(80_000).partitions().containsKey(1L));
        window.otmGone("otm-a");
        window.report("otm-b", 120_000, otm());
        assertFalse(window.view(120_000).otms().containsKey("otm-a"));
    }

    @Test
    void partitionsBeyondTheBoundAreIgnoredAndCounted() {
        LoadWindow small = new LoadWindow(new LoadWindowConfig(10_000, 1_000, 2));
        List<PartitionLoad> three = new ArrayList<>();
        for (long t = 0; t <= 10_000; t += 1_000) {
            three.clear();
            for (long p = 1; p <= 3; p++) {
                three.add(partition(p, 10, t));
            }
            small.report("otm-a", t, new OtmLoad(-1, 0, 0, three));
        }
        LoadView view = small.view(10_000);
        assertEquals(List.of(1L, 2L), List.copyOf(view.partitions().keySet()));
        assertEquals(11, small.partitionsIgnored());
        assertEquals(30.0, view.otms().get("otm-a").requestsPerSecond(), 1e-9, "the OTM's own load counts all three");
        assertEquals(-1, view.otms().get("otm-a").cpuLoad());
    }
}
