package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.HdfsDfs;
import org.elastras.storage.dfs.MiniHdfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.wal.WalEntry;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalReader;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HDFS with 3 datanodes and replication 3: committers keep logging (WAL, hsync per batch) and
 * applying to a partition store that flushes, while one datanode is stopped mid-stream. With the
 * client's pipeline policy ({@link HdfsDfs#configureWritePipelineRecovery}) the open segment's
 * pipeline goes on with the two survivors: every commit is acknowledged, and with the datanode
 * still down the log reads back every acknowledged record and a new owner recovers every
 * acknowledged version from the manifest and the log. Without best effort (HDFS's default) the
 * pipeline finds no spare datanode and the log dies: the append fails with an IOException
 * naming that, and still nothing acknowledged before is lost.
 *
 * <p>The datanode is stopped only after the store has flushed once, and the committers go on for
 * {@link #COMMITS_AFTER_STOP} commits after it, so "before and after the stop" holds whatever the
 * machine's speed (a fast committer used to finish every commit inside one slow flush).
 *
 * <p>One cluster for both tests (about 10 s to start); after each test the datanode it stopped is
 * restarted, whether or not the test passed.
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class ADatanodeStoppedMidStreamLosesNoAcknowledgedCommitTest {

    private static final long PARTITION = 1;
    private static final int COMMITTERS = 2;
    private static final int COMMITS_BEFORE_STOP = 100;
    private static final int COMMITS_AFTER_STOP = 200;
    /** Bounds a committer whatever happens to the stop. */
    private static final int COMMITS_PER_COMMITTER_MAX = 5_000;
    /** Small segments: the log rolls onto the survivors after the stop (best effort). */
    private static final long ROLLING_SEGMENT_BYTES = 64 * 1024;
    /**
     * One segment holds every commit the committers can make (at most 10,000 records of about 150
     * bytes), so the stop always falls inside the open segment, whose pipeline was set up on all 3
     * datanodes. With rolling segments a stop just before a roll let every later commit go into a
     * new segment on the 2 live datanodes (the namenode excludes the dead one when the pipeline is
     * first set up, which is not the recovery under test), and a CI run saw no append fail.
     */
    private static final long UNROLLED_SEGMENT_BYTES = 16L * 1024 * 1024;

    private static MiniHdfs hdfs;

    private final StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);
    private final StoreOptions options = StoreOptions.DEFAULT.withMemtableBytesMax(8 * 1024);

    @BeforeAll
    static void startCluster() throws IOException {
        Path base = Paths.get("target", "minidfs-datanode-stop-" + ProcessHandle.current().pid());
        Files.createDirectories(base);
        hdfs = MiniHdfs.start(3, base);
    }

    @AfterEach
    void restartTheStoppedDatanodes() throws IOException {
        for (MiniDFSCluster.DataNodeProperties stopped : restartAfterTheChecks) {
            // On new ports: the stopped datanode's old port can still be held (its transfer
            // threads close late), and a restart that cannot bind it left waitActive() below
            // waiting forever (a CI run hung here).
            hdfs.cluster().restartDataNode(stopped, false);
        }
        restartAfterTheChecks.clear();
        hdfs.cluster().waitActive();
    }

    @AfterAll
    static void stopCluster() {
        if (hdfs != null) {
            hdfs.close();
        }
    }

    /** What the committers saw while datanode 0 was stopped under them. */
    private record Run(URI root, Map<Long, Version> acknowledged, int attempted, int beforeStop,
            List<Throwable> appendFailures, int flushesBeforeStop, int flushesAfterStop, List<Throwable> flushFailures) {
    }

    @Test
    void withBestEffortPipelineRecoveryEveryCommitIsAcknowledgedAndRecovered() throws Exception {
        Configuration conf = new Configuration(hdfs.configuration());
        HdfsDfs.configureWritePipelineRecovery(conf);
        Run run = commitWhileADatanodeStops(conf, "best-effort", ROLLING_SEGMENT_BYTES);
        assertTrue(run.appendFailures().isEmpty(), "with best-effort pipeline recovery no append fails: "
                + run.appendFailures());
        assertEquals(run.attempted(), run.acknowledged().size(), "every commit is acknowledged");
        assertTrue(run.acknowledged().size() >= run.beforeStop() + COMMITS_AFTER_STOP,
                "commits went on after the stop: " + run.beforeStop() + " before, " + run.acknowledged().size() + " in all");
        assertTrue(run.flushesBeforeStop() >= 1, "the store flushed before the stop");
        assertTrue(run.flushesAfterStop() >= 1, "the store flushed after the stop");
        assertTrue(run.flushFailures().isEmpty(), "no flush fails: " + run.flushFailures());
        recoverWithTheDatanodeDown(conf, run);
    }

    @Test
    void withoutBestEffortTheLogFailsWithTheCauseAndLosesNothingAcknowledged() throws Exception {
        Configuration conf = new Configuration(hdfs.configuration());
        conf.setBoolean("dfs.client.block.write.replace-datanode-on-failure.best-effort", false);
        Run run = commitWhileADatanodeStops(conf, "no-best-effort", UNROLLED_SEGMENT_BYTES);
        assertTrue(!run.appendFailures().isEmpty(), "3 datanodes, replication 3: no replacement, the pipeline fails");
        for (Throwable failure : run.appendFailures()) {
            Throwable cause = failure instanceof IllegalStateException ? failure : failure.getCause();
            assertTrue(cause instanceof IOException || cause instanceof IllegalStateException, failure.toString());
            assertTrue(String.valueOf(cause.getMessage()).contains("bad datanode"),
                    "the error names the failed pipeline: " + cause.getMessage());
        }
        recoverWithTheDatanodeDown(conf, run);
    }

    private Run commitWhileADatanodeStops(Configuration conf, String rootName, long segmentBytes) throws Exception {
        URI root = URI.create("hdfs://" + hdfs.cluster().getURI().getAuthority() + "/" + rootName);
        Map<Long, Version> acknowledged = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Throwable> appendFailures = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> flushFailures = new ConcurrentLinkedQueue<>();
        AtomicInteger flushes = new AtomicInteger();
        AtomicInteger attempted = new AtomicInteger();
        AtomicInteger stoppedAt = new AtomicInteger(-1);
        MiniDFSCluster.DataNodeProperties stopped = null;
        try (Dfs dfs = HdfsDfs.open(root, conf)) {
            WalWriter wal = WalWriter.open(dfs, "wal/otm-a", WalOptions.DEFAULT.withSegmentBytesMax(segmentBytes));
            UnappliedCommits cursor = new UnappliedCommits("otm-a", wal);
            PartitionStore store = PartitionStore.open(dfs, "data/db/1", options, env);
            store.finishRecovery(cursor);
            AtomicLong cts = new AtomicLong();
            AtomicInteger committed = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();

            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < COMMITTERS; t++) {
                int thread = t;
                threads.add(new Thread(() -> {
                    for (int i = 0; i < COMMITS_PER_COMMITTER_MAX && appendFailures.isEmpty(); i++) {
                        int mark = stoppedAt.get();
                        if (mark >= 0 && committed.get() - mark >= COMMITS_AFTER_STOP) {
                            return;
                        }
                        byte[] key = ("k" + thread + "-" + (i % 50)).getBytes(StandardCharsets.UTF_8);
                        byte[] value = ("value-" + i + "-" + "x".repeat(100)).getBytes(StandardCharsets.UTF_8);
                        try (UnappliedCommits.Ticket ticket = cursor.begin()) {
                            long c = cts.incrementAndGet();
                            attempted.incrementAndGet();
                            WalPosition position;
                            try {
                                position = wal.append(new WalRecord(c, List.of(new WalRecord.Mutation(PARTITION, key, value)))).join();
                            } catch (RuntimeException e) {
                                appendFailures.add(e);
                                return;
                            }
                            Version v = new Version(key, c, value);
                            store.apply("otm-a", position, List.of(v));
                            acknowledged.put(c, v);
                            committed.incrementAndGet();
                        }
                    }
                }, "committer-" + t));
            }
            Thread flusher = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        if (store.flush()) {
                            flushes.incrementAndGet();
                        }
                        Thread.sleep(20);
                    } catch (IOException e) {
                        flushFailures.add(e);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "flusher");
            threads.forEach(Thread::start);
            flusher.start();

            while ((committed.get() < COMMITS_BEFORE_STOP || flushes.get() == 0) && appendFailures.isEmpty()
                    && flushFailures.isEmpty()) {
                Thread.sleep(5);
            }
            int flushesBeforeStop = flushes.get();
            stopped = hdfs.cluster().stopDataNode(0);
            int beforeStop = committed.get();
            stoppedAt.set(beforeStop);
            for (Thread t : threads) {
                t.join();
            }
            stop.set(true);
            flusher.join();
            // One flush after the committers end, so that what they left in memory is flushed
            // with the datanode down too.
            try {
                if (store.flush()) {
                    flushes.incrementAndGet();
                }
            } catch (IOException e) {
                flushFailures.add(e);
            }
            int flushesAfterStop = flushes.get() - flushesBeforeStop;
            System.out.println(rootName + ": datanode stopped after " + beforeStop + " commits and " + flushesBeforeStop
                    + " flushes; acknowledged " + acknowledged.size() + " of " + attempted.get() + "; flushes after the stop "
                    + flushesAfterStop + "; append failures " + appendFailures + "; flush failures " + flushFailures);
            store.close();
            try {
                wal.close();
            } catch (IOException e) {
                assertTrue(!appendFailures.isEmpty(), "only a log that failed an append fails its close: " + e);
            }
            return new Run(root, acknowledged, attempted.get(), beforeStop, List.copyOf(appendFailures),
                    flushesBeforeStop, flushesAfterStop, List.copyOf(flushFailures));
        } finally {
            if (stopped != null) {
                restartAfterTheChecks.add(stopped);
            }
        }
    }

    private final List<MiniDFSCluster.DataNodeProperties> restartAfterTheChecks = new ArrayList<>();

    /** With the datanode still down, a new client reads the log and a new owner recovers the partition. */
    private void recoverWithTheDatanodeDown(Configuration conf, Run run) throws Exception {
        assertEquals(2, hdfs.cluster().getDataNodes().size());
        try (Dfs dfs = HdfsDfs.open(run.root(), new Configuration(conf))) {
            Map<Long, WalRecord> logged = new ConcurrentHashMap<>();
            for (WalEntry e : WalReader.readAll(dfs, "wal/otm-a", WalPosition.START)) {
                logged.put(e.record().cts(), e.record());
            }
            for (Version v : run.acknowledged().values()) {
                assertTrue(logged.containsKey(v.cts()), "the log holds acknowledged CTS " + v.cts());
            }

            PartitionStore recovered = PartitionStore.open(dfs, "data/db/1", options, env);
            PartitionRecovery.replay(recovered, PARTITION, dfs, walId -> "wal/" + walId);
            WalWriter newWal = WalWriter.open(dfs, "wal/otm-b", WalOptions.DEFAULT);
            UnappliedCommits newCursor = new UnappliedCommits("otm-b", newWal);
            recovered.finishRecovery(newCursor);
            for (Version v : run.acknowledged().values()) {
                assertEquals(v, recovered.getVersion(v.key(), v.cts()), "acknowledged " + v);
            }
            // The new owner commits on the two remaining datanodes and flushes there (whatever the
            // run left in memory: one fresh commit makes sure there is something to flush).
            long freshCts = run.acknowledged().keySet().stream().mapToLong(Long::longValue).max().orElse(0) + 1_000_000;
            Version fresh = new Version("fresh".getBytes(StandardCharsets.UTF_8), freshCts,
                    "after".getBytes(StandardCharsets.UTF_8));
            try (UnappliedCommits.Ticket ticket = newCursor.begin()) {
                WalPosition at = newWal.append(new WalRecord(freshCts,
                        List.of(new WalRecord.Mutation(PARTITION, fresh.key(), fresh.value())))).join();
                recovered.apply("otm-b", at, List.of(fresh));
            }
            assertTrue(recovered.flush(), "the new owner flushes on the two remaining datanodes");
            assertEquals(fresh, recovered.getVersion(fresh.key(), freshCts));
            recovered.close();
            newWal.close();
        }
    }
}
