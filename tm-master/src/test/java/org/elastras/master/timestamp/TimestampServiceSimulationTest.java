package org.elastras.master.timestamp;

import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;
import org.elastras.client.protocol.CtsRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulations of many OTMs against the timestamp service, with random commit sizes, aborts,
 * out-of-order commit completion, lost reports and replies, OTM crashes with WAL recovery, and
 * master failovers over a shared high-water mark. After every exchange: no CTS was ever issued
 * twice (across masters too), and the snapshot never passed a CTS that is not done in the model
 * (reported readable or unused, recovered, or released), and equals the model's gap-free prefix
 * whenever no inherited CTSs are pending. Replay one run with {@code -Dtimestamp.seed=N}.
 */
class TimestampServiceSimulationTest {

    private static final int OTMS = 30;
    private static final int PERIODS = 1000;

    @Test
    void noCtsIssuedTwiceAndSnapshotNeverPassesAnUnreportedCts() throws Exception {
        List<Long> seeds = new ArrayList<>();
        Long fixed = Long.getLong("timestamp.seed");
        if (fixed != null) {
            seeds.add(fixed);
        } else {
            seeds.add(1L);
            seeds.add(20240607L);
            seeds.add(System.nanoTime());
        }
        for (long seed : seeds) {
            System.out.println("TimestampServiceSimulationTest seed=" + seed);
            new Run(seed).run();
        }
    }

    /** One simulated run from one seed. */
    private static final class Run {
        private final long seed;
        private final SplittableRandom random;
        private final InMemoryHighWaterMarkStore.Node node = new InMemoryHighWaterMarkStore.Node();
        private final TimestampServiceConfig config = new TimestampServiceConfig(4, 2048, 16_384, 256, 16, 100_000, 4096);
        /** Every range ever issued, by first CTS, and to whom. */
        private final TreeMap<Long, CtsRange> issued = new TreeMap<>();
        private final Map<CtsRange, String> issuedTo = new HashMap<>();
        private final Map<String, List<CtsRange>> issuedByOtm = new HashMap<>();
        /** CTSs done in the model. */
        private final BitSet finished = new BitSet();
        private final List<SimulatedOtm> live = new ArrayList<>();
        private final Map<SimulatedOtm, Long> deadUntilPeriod = new LinkedHashMap<>();
        private TimestampService service;
        private boolean inheritedPhase;
        private long inheritedUpToCts;
        private final Set<String> contacted = new HashSet<>();
        private long lastSnapshotCts;
        private int nextOtmId;
        private int failovers;
        private int crashes;
        private long exchanges;

        Run(long seed) {
            this.seed = seed;
            this.random = new SplittableRandom(seed);
        }

        private String where(long period) {
            return " (seed=" + seed + ", period=" + period + ", failovers=" + failovers + ", crashes=" + crashes + ")";
        }

        void run() throws Exception {
            service = TimestampService.start(new InMemoryHighWaterMarkStore(node), config);
            for (int i = 0; i < OTMS; i++) {
                live.add(new SimulatedOtm("otm-" + nextOtmId++));
            }
            for (long period = 0; period < PERIODS; period++) {
                if (random.nextInt(300) == 0) {
                    failover(period);
                }
                if (random.nextInt(40) == 0) {
                    node.failNextWrite();
                }
                List<SimulatedOtm> order = new ArrayList<>(live);
                for (int i = order.size() - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    SimulatedOtm swap = order.get(i);
                    order.set(i, order.get(j));
                    order.set(j, swap);
                }
                for (SimulatedOtm otm : order) {
                    otm.finish(period);
                    otm.commit(random, period, random.nextInt(3) == 0 ? random.nextInt(400) : random.nextInt(20), 0.1, 3);
                    if (random.nextInt(20) == 0) {
                        continue; // the report was lost on the way
                    }
                    exchange(otm, period, random.nextInt(20) != 0);
                }
                if (random.nextInt(25) == 0 && !live.isEmpty()) {
                    SimulatedOtm victim = live.remove(random.nextInt(live.size()));
                    service.otmFailed(victim.id);
                    deadUntilPeriod.put(victim, period + 1 + random.nextInt(5));
                    live.add(new SimulatedOtm("otm-" + nextOtmId++));
                    crashes++;
                }
                recoverDue(period);
                maybeRelease(period);
            }
            // Drain: no more commits, everything in flight finishes, every dead OTM is recovered.
            for (SimulatedOtm otm : live) {
                otm.finishAll();
            }
            recoverDue(Long.MAX_VALUE);
            for (int round = 0; round < 3; round++) {
                for (SimulatedOtm otm : live) {
                    exchange(otm, PERIODS + round, true);
                }
                maybeRelease(PERIODS + round);
            }
            assertTrue(!inheritedPhase, "inherited CTSs still pending at the end" + where(PERIODS));
            // Liveness: the snapshot stops only at a CTS that a live OTM still owes (the rest of a range it
            // switched away from, or its current range).
            long blocking = service.snapshotCts() + 1;
            boolean owedByLiveOtm = false;
            for (SimulatedOtm otm : live) {
                for (CtsRange range : otm.owedRanges()) {
                    owedByLiveOtm |= range.contains(blocking);
                }
            }
            assertTrue(owedByLiveOtm, "after draining, the snapshot " + service.snapshotCts() + " waits for CTS " + blocking
                    + " that no live OTM owes" + where(PERIODS));
            System.out.printf("  seed=%d: %d exchanges, %d failovers, %d crashes, last CTS issued %d, snapshot %d%n", seed,
                    exchanges, failovers, crashes, service.issuedUpToCts(), service.snapshotCts());
        }

        private void exchange(SimulatedOtm otm, long period, boolean replyArrives) {
            TimestampReport report = otm.report();
            TimestampReply reply;
            try {
                reply = service.exchange(otm.id, report);
            } catch (RejectedReportException e) {
                fail("a valid report was rejected: " + e.getMessage() + where(period));
                return;
            }
            exchanges++;
            contacted.add(otm.id);
            otm.accepted(report);
            for (CtsRange range : report.readableRanges()) {
                markFinished(range, period);
            }
            for (CtsRange range : report.unusedRanges()) {
                markFinished(range, period);
            }
            if (reply.newRange() != null) {
                checkIssuedOnce(otm.id, reply.newRange(), period);
            }
            if (replyArrives) {
                otm.received(reply);
            }
            checkSnapshot(period);
        }

        private void markFinished(CtsRange range, long period) {
            if (range.lastCts() >= Integer.MAX_VALUE) {
                fail("CTS beyond the model's bit set" + where(period));
            }
            int from = (int) range.firstCts();
            int to = (int) range.lastCts() + 1;
            if (finished.nextSetBit(from) != -1 && finished.nextSetBit(from) < to) {
                fail("the model saw CTS " + finished.nextSetBit(from) + " finish twice" + where(period));
            }
            finished.set(from, to);
        }

        private void checkIssuedOnce(String otmId, CtsRange range, long period) {
            String owner = issuedTo.get(range);
            if (owner != null) {
                assertEquals(otmId, owner, "range " + range + " handed to two OTMs" + where(period));
                return; // a resend of a range whose reply was lost
            }
            Map.Entry<Long, CtsRange> below = issued.floorEntry(range.lastCts());
            if (below != null && below.getValue().lastCts() >= range.firstCts()) {
                fail("range " + range + " for " + otmId + " overlaps " + below.getValue() + " issued to "
                        + issuedTo.get(below.getValue()) + ": a CTS issued twice" + where(period));
            }
            issued.put(range.firstCts(), range);
            issuedTo.put(range, otmId);
            issuedByOtm.computeIfAbsent(otmId, id -> new ArrayList<>()).add(range);
        }

        private void checkSnapshot(long period) {
            long snapshot = service.snapshotCts();
            long prefix = finished.nextClearBit(1) - 1;
            if (snapshot > prefix) {
                fail("snapshot " + snapshot + " passed CTS " + (prefix + 1) + ", which is not reported" + where(period));
            }
            if (snapshot < lastSnapshotCts) {
                fail("snapshot went back from " + lastSnapshotCts + " to " + snapshot + where(period));
            }
            lastSnapshotCts = snapshot;
            if (!inheritedPhase) {
                assertEquals(prefix, snapshot, "snapshot lags the gap-free prefix of reported CTSs" + where(period));
            }
        }

        private void recoverDue(long period) {
            for (var it = deadUntilPeriod.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<SimulatedOtm, Long> entry = it.next();
                if (entry.getValue() > period) {
                    continue;
                }
                SimulatedOtm dead = entry.getKey();
                dead.finishAll(); // what it logged is replayed by the new owners: readable
                service.otmFailed(dead.id); // again, in case a new master took over since
                service.otmRecovered(dead.id);
                // Done now: what it still owed, and any range issued to it whose reply never arrived.
                BitSet recovered = new BitSet();
                for (CtsRange range : dead.owedRanges()) {
                    recovered.set((int) range.firstCts(), (int) range.lastCts() + 1);
                }
                for (CtsRange range : issuedByOtm.getOrDefault(dead.id, List.of())) {
                    recovered.set((int) range.firstCts(), (int) range.lastCts() + 1);
                }
                recovered.andNot(finished);
                finished.or(recovered);
                it.remove();
                checkSnapshot(period);
            }
        }

        private void failover(long period) throws Exception {
            failovers++;
            // The old master is gone (crashed); a standby reads the mark and takes over.
            inheritedUpToCts = node.markCts();
            try {
                service = TimestampService.start(new InMemoryHighWaterMarkStore(node), config);
            } catch (java.io.IOException storeDown) {
                // The store failed the first write: the standby issued nothing and simply starts again.
                service = TimestampService.start(new InMemoryHighWaterMarkStore(node), config);
            }
            inheritedPhase = true;
            contacted.clear();
            lastSnapshotCts = 0;
        }

        private void maybeRelease(long period) {
            if (!inheritedPhase || !deadUntilPeriod.isEmpty()) {
                return;
            }
            for (SimulatedOtm otm : live) {
                if (!contacted.contains(otm.id)) {
                    return;
                }
            }
            long inheritedUpTo = inheritedUpToCts;
            BitSet released = new BitSet();
            released.set(1, (int) inheritedUpTo + 1);
            for (SimulatedOtm otm : live) {
                for (CtsRange range : otm.owedRanges()) {
                    if (range.firstCts() <= inheritedUpTo) {
                        released.clear((int) range.firstCts(), (int) Math.min(range.lastCts(), inheritedUpTo) + 1);
                    }
                }
            }
            released.andNot(finished);
            finished.or(released);
            service.inheritedClaimsComplete();
            inheritedPhase = false;
            checkSnapshot(period);
        }
    }
}
