package org.elastras.otm.txn;

import static org.elastras.otm.txn.TxnTestbed.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.elastras.client.protocol.LatencyHistogram;
import org.junit.jupiter.api.Test;

/**
 * The heartbeat's per-partition load: begins, commits and aborts are counted per partition, the
 * commit latency covers exactly the commits since the previous report, and a latency recorded
 * while reports are taken lands in exactly one report.
 */
class PartitionLoadCountsBeginsCommitsAbortsAndLatencyTest {

    @Test
    void eachPartitionCountsItsOwnTransactionsAndLatencyIsPerInterval() throws Exception {
        try (TxnTestbed bed = new TxnTestbed(7, 8)) {
            TransactionManager m = bed.manager;
            long written = m.begin(7, Isolation.SERIALIZABLE);
            m.put(written, bytes("k"), bytes("v"));
            m.commit(written);
            m.commit(m.begin(7, Isolation.SNAPSHOT)); // read-only
            m.abort(m.begin(7, Isolation.SNAPSHOT));
            m.abort(m.begin(8, Isolation.SNAPSHOT));

            TransactionManager.PartitionLoadSample p7 = sample(m.takePartitionLoads(), 7);
            TransactionManager.PartitionLoadSample p8 = sample(m.takePartitionLoads(), 8);
            assertEquals(List.of(3L, 2L, 1L), List.of(p7.begins(), p7.commits(), p7.aborts()));
            assertTrue(p7.storeBytes() > 0, "the memtable holds the write: " + p7.storeBytes());
            assertNotNull(p7.commitLatency());
            assertEquals(2, p7.commitLatency().count());
            assertEquals(List.of(1L, 0L, 1L), List.of(p8.begins(), p8.commits(), p8.aborts()));
            assertNull(p8.commitLatency(), "nothing committed on 8");

            // The first take consumed p7's latency; counters stay cumulative.
            TransactionManager.PartitionLoadSample again = sample(m.takePartitionLoads(), 7);
            assertNull(again.commitLatency());
            assertEquals(3, again.begins());
            m.commit(m.begin(7, Isolation.SNAPSHOT));
            assertEquals(1, sample(m.takePartitionLoads(), 7).commitLatency().count());
        }
    }

    private static TransactionManager.PartitionLoadSample sample(List<TransactionManager.PartitionLoadSample> all, long id) {
        return all.stream().filter(s -> s.partitionId() == id).findFirst().orElseThrow();
    }

    @Test
    void everyValueRecordedDuringTakesLandsInExactlyOneInterval() throws Exception {
        LatencyRecorder recorder = new LatencyRecorder();
        int threads = 4;
        int perThread = 50_000;
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread w = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    recorder.record((i * 31L + seed) % 5_000);
                }
                done.countDown();
            });
            writers.add(w);
            w.start();
        }
        long[] total = new long[LatencyHistogram.BUCKETS];
        AtomicBoolean stop = new AtomicBoolean();
        while (!stop.get()) {
            stop.set(done.getCount() == 0); // one more take after the writers finished
            LatencyHistogram h = recorder.takeInterval();
            if (h != null) {
                h.addTo(total);
            }
        }
        for (Thread w : writers) {
            w.join();
        }
        assertNull(recorder.takeInterval());
        long counted = 0;
        for (long c : total) {
            counted += c;
        }
        assertEquals((long) threads * perThread, counted);
        assertEquals(4_999, LatencyHistogram.percentileMicros(total, 1.0, 4_999));
    }

    @Test
    void aNegativeLatencyCountsAsZero() {
        LatencyRecorder recorder = new LatencyRecorder();
        recorder.record(-5);
        recorder.record(12);
        LatencyHistogram h = recorder.takeInterval();
        assertEquals(0, h.firstBucket());
        assertEquals(2, h.count());
        assertEquals(12, h.maxMicros());
    }
}
