package org.elastras.master.timestamp;

import org.elastras.client.protocol.WithheldReason;
import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;
import org.elastras.client.protocol.CtsRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.meta.ZkPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The high-water mark in a real ZooKeeper (curator-test): a master that fails over never lets its
 * successor reissue a CTS, and a stale master whose version check fails stops issuing.
 */
class MasterFailoverNeverReissuesCtsTest {

    private static final TimestampServiceConfig CONFIG = new TimestampServiceConfig(16, 512, 2048, 64, 16, 10_000, 1024);

    private TestingServer zk;
    private final List<CuratorFramework> clients = new ArrayList<>();
    private final ZkPaths paths = new ZkPaths("/elastras-test");

    @BeforeEach
    void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stop() throws IOException {
        clients.forEach(CuratorFramework::close);
        zk.close();
    }

    private ZkHighWaterMarkStore store(long writerId) {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(zk.getConnectString()).sessionTimeoutMs(10_000)
                .connectionTimeoutMs(5_000).retryPolicy(new RetryNTimes(20, 100)).build();
        client.start();
        clients.add(client);
        return new ZkHighWaterMarkStore(client, paths, writerId);
    }

    /** Records every range handed out and fails on any overlap. */
    private static final class IssuedLedger {
        private final TreeMap<Long, CtsRange> ranges = new TreeMap<>();

        void record(CtsRange range, String context) {
            CtsRange same = ranges.get(range.firstCts());
            if (range.equals(same)) {
                return; // a resend
            }
            var below = ranges.floorEntry(range.lastCts());
            assertTrue(below == null || below.getValue().lastCts() < range.firstCts(),
                    "range " + range + " overlaps " + (below == null ? null : below.getValue()) + ": CTS issued twice (" + context + ")");
            ranges.put(range.firstCts(), range);
        }
    }

    /** The simulated period, shared by every run of a test (commits finish in a later period). */
    private long clockPeriod;

    private void runPeriods(TimestampService service, List<SimulatedOtm> otms, SplittableRandom random, int periods,
            IssuedLedger ledger, String context) {
        for (int i = 0; i < periods; i++) {
            long period = clockPeriod++;
            for (SimulatedOtm otm : otms) {
                otm.finish(period);
                otm.commit(random, period, random.nextInt(600), 0.05, 2);
                TimestampReport report = otm.report();
                TimestampReply reply = service.exchange(otm.id, report);
                otm.accepted(report);
                if (reply.newRange() != null) {
                    ledger.record(reply.newRange(), context);
                }
                otm.received(reply);
            }
        }
    }

    @Test
    void aNewMasterStartsAboveThePersistedMarkAndNoCtsRepeats() throws Exception {
        long seed = System.nanoTime();
        System.out.println("MasterFailoverNeverReissuesCtsTest seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        IssuedLedger ledger = new IssuedLedger();
        List<SimulatedOtm> otms = List.of(new SimulatedOtm("a"), new SimulatedOtm("b"), new SimulatedOtm("c"));

        TimestampService first = TimestampService.start(store(1), CONFIG);
        runPeriods(first, otms, random, 50, ledger, "first master, seed=" + seed);
        long firstIssuedUpTo = first.issuedUpToCts();
        assertTrue(firstIssuedUpTo > 5 * CONFIG.highWaterMarkWindowCts(), "the run must cross several windows");
        assertTrue(first.durableMarkCts() >= firstIssuedUpTo);

        // The first master crashes; a standby reads the mark from ZooKeeper and takes over.
        ZkHighWaterMarkStore standbyStore = store(2);
        TimestampService second = TimestampService.start(standbyStore, CONFIG);
        assertTrue(second.durableMarkCts() > firstIssuedUpTo);
        assertEquals(0, second.snapshotCts(), "nothing visible before the OTMs' claims are complete");
        runPeriods(second, otms, random, 1, ledger, "second master, first contact, seed=" + seed);
        second.inheritedClaimsComplete();
        runPeriods(second, otms, random, 50, ledger, "second master, seed=" + seed);
        assertTrue(second.snapshotCts() > firstIssuedUpTo, "the snapshot moved past the first master's CTSs: "
                + second.snapshotCts() + " (seed=" + seed + ")");

        // A third master, built from what ZooKeeper holds now.
        TimestampService third = TimestampService.start(store(3), CONFIG);
        assertTrue(third.durableMarkCts() > second.issuedUpToCts());
        runPeriods(third, otms, random, 5, ledger, "third master, seed=" + seed);
    }

    @Test
    void aStaleMasterStopsIssuingWhenItsVersionCheckFails() throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        IssuedLedger ledger = new IssuedLedger();
        List<SimulatedOtm> otms = List.of(new SimulatedOtm("a"), new SimulatedOtm("b"));
        TimestampService stale = TimestampService.start(store(1), CONFIG);
        runPeriods(stale, otms, random, 5, ledger, "before the takeover");

        // A second master takes over while the first still believes it is active.
        TimestampService active = TimestampService.start(store(2), CONFIG);
        List<SimulatedOtm> staleOnes = List.of(new SimulatedOtm("zombie-client"));
        // The stale master keeps answering until it must advance its mark, then the version check fails.
        for (int period = 0; period < 200 && !stale.fenced(); period++) {
            runPeriods(stale, staleOnes, random, 1, ledger, "stale master");
        }
        assertTrue(stale.fenced(), "the stale master must hit the version conflict");
        long staleUpTo = stale.issuedUpToCts();
        TimestampReply refused = stale.exchange("zombie-client", staleOnes.get(0).report());
        assertEquals(WithheldReason.FENCED, refused.withheldReason());
        assertEquals(staleUpTo, stale.issuedUpToCts(), "a fenced master issues nothing");

        List<SimulatedOtm> fresh = List.of(new SimulatedOtm("d"), new SimulatedOtm("e"));
        runPeriods(active, fresh, random, 20, ledger, "active master");
        assertTrue(active.issuedUpToCts() > staleUpTo);
        assertTrue(!active.fenced());
    }

    @Test
    void aMasterThatLosesTheRaceAtStartNeverIssues() throws Exception {
        ZkHighWaterMarkStore slow = store(1);
        ZkHighWaterMarkStore fast = store(2);
        assertEquals(0, slow.load());
        assertEquals(0, fast.load());
        fast.advance(1000);
        // slow read version 0 and now tries to advance from it.
        assertThrows(HighWaterMarkConflictException.class, () -> slow.advance(500));
        assertThrows(HighWaterMarkConflictException.class, () -> TimestampService.start(new StoreThatRacesAtStart(store(3), fast),
                CONFIG));
    }

    /** Loads, then lets another master advance the mark before the first write. */
    private record StoreThatRacesAtStart(ZkHighWaterMarkStore inner, ZkHighWaterMarkStore rival) implements HighWaterMarkStore {
        @Override
        public long load() throws IOException {
            long mark = inner.load();
            try {
                rival.advance(mark + 100_000);
            } catch (HighWaterMarkConflictException e) {
                throw new AssertionError(e);
            }
            return mark;
        }

        @Override
        public void advance(long markCts) throws HighWaterMarkConflictException, IOException {
            inner.advance(markCts);
        }
    }

    @Test
    void theStoredMarkIsChecksummedAndACorruptNodeIsAClearError() throws Exception {
        ZkHighWaterMarkStore store = store(7);
        assertEquals(0, store.load(), "created as 0 on first start");
        store.advance(12_345);
        assertEquals(12_345, store(8).load());
        CuratorFramework raw = clients.get(0);
        byte[] data = raw.getData().forPath(paths.ts());
        assertEquals(HighWaterMarkFormat.SIZE_BYTES, data.length);
        raw.setData().forPath(paths.ts(), "12345".getBytes(StandardCharsets.UTF_8));
        IOException corrupt = assertThrows(IOException.class, () -> store(9).load());
        assertTrue(corrupt.getMessage().contains("corrupt"), corrupt.getMessage());
        data[7] ^= 1;
        raw.setData().forPath(paths.ts(), data);
        IOException badChecksum = assertThrows(IOException.class, () -> store(10).load());
        assertNotNull(badChecksum.getMessage());
    }
}
