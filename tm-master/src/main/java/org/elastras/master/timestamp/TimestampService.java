package org.elastras.master.timestamp;

import org.elastras.client.protocol.WithheldReason;
import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;
import java.io.IOException;
import java.util.HashSet;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active master's timestamp service: a {@link CommitSequencer} and a {@link SnapshotServer}
 * behind one exchange per OTM per period, with the high-water mark persisted through a
 * {@link HighWaterMarkStore}. The heartbeat handler calls {@link #exchange} with each OTM's report
 * and sends the reply back; the master's membership and recovery logic calls {@link #otmFailed},
 * {@link #otmRecovered} and {@link #inheritedClaimsComplete}.
 *
 * <p>The OTMs it knows are participants named by the master: each run of an OTM (its wal id,
 * {@code <otm id>@<start>}), so a restarted OTM is a new participant while the CTSs its previous
 * run owed are still being recovered; an OTM found dead at a master's rebuild, whose run is not
 * known, is named by its id.
 *
 * <p>Thread-safe: every call takes one lock for a few map operations (no IO under it);
 * {@link #snapshotCts()} and {@link #fenced()} are volatile reads. The only IO, persisting a new
 * high-water mark, runs on the thread of the exchange that found it due, outside the lock, about
 * once per half window of CTSs issued; other exchanges go on meanwhile.
 *
 * <p>Use {@link #start} to build one: it reads the persisted mark, starts issuing above it, and
 * persists the first window before returning, so a master that cannot write the mark never issues.
 */
public final class TimestampService {

    private static final Logger LOG = LoggerFactory.getLogger(TimestampService.class);

    private final ReentrantLock lock = new ReentrantLock();
    private final HighWaterMarkStore store;
    /** Guarded by {@link #lock}. */
    private final CommitSequencer sequencer;
    /** Guarded by {@link #lock}; its snapshot is read without it. */
    private final SnapshotServer server;
    /** Guarded by {@link #lock}: OTMs declared failed and not yet recovered; their exchanges are refused. */
    private final Set<String> failedOtms = new HashSet<>();
    private final int otmsMax;
    /** Set once, when another master advanced the mark. */
    private volatile boolean fenced;

    private TimestampService(HighWaterMarkStore store, long persistedMarkCts, TimestampServiceConfig config) {
        this.store = store;
        this.sequencer = new CommitSequencer(persistedMarkCts, config.sizing(), config.highWaterMarkWindowCts(), config.otmsMax());
        this.server = new SnapshotServer(0, persistedMarkCts, config.otmsMax(), config.owedRangesPerOtmMax(),
                config.pendingRangesMax(), config.reportRangesMax());
        this.otmsMax = config.otmsMax();
    }

    /**
     * Starts the service of a master that just became active: loads the mark, persists the first
     * window above it. Every CTS at or below the loaded mark is inherited (see {@link SnapshotServer}):
     * the snapshot stays at 0 until {@link #inheritedClaimsComplete()} (immediately possible in a
     * new cluster, where the mark is 0 and nothing is inherited).
     *
     * @throws HighWaterMarkConflictException another master advanced the mark after it was loaded
     * @throws IOException the store cannot be read or written
     */
    public static TimestampService start(HighWaterMarkStore store, TimestampServiceConfig config)
            throws IOException, HighWaterMarkConflictException {
        Objects.requireNonNull(config, "config");
        long persistedMarkCts = store.load();
        TimestampService service = new TimestampService(store, persistedMarkCts, config);
        long markCts;
        service.lock.lock();
        try {
            markCts = service.sequencer.persistDue().orElseThrow(() -> new IllegalStateException("a new sequencer must persist first"));
        } finally {
            service.lock.unlock();
        }
        try {
            store.advance(markCts);
        } catch (HighWaterMarkConflictException | IOException e) {
            service.lock.lock();
            try {
                service.sequencer.fence();
            } finally {
                service.lock.unlock();
            }
            service.fenced = true;
            throw e;
        }
        service.lock.lock();
        try {
            service.sequencer.persisted(markCts);
        } finally {
            service.lock.unlock();
        }
        LOG.info("timestamp service started: inherited CTSs up to {}, durable high-water mark {}", persistedMarkCts, markCts);
        return service;
    }

    /**
     * One period's exchange with {@code otmId}: applies its report and answers with a new range
     * (every period, unless withheld) and the current snapshot.
     *
     * @throws RejectedReportException if the report is impossible or the OTM was declared failed;
     *     the report changed nothing (except that a first contact's owed ranges are recorded if they
     *     were valid)
     */
    public TimestampReply exchange(String otmId, TimestampReport report) {
        if (otmId == null || otmId.isEmpty()) {
            throw new IllegalArgumentException("the participant (an OTM's run or id) is required");
        }
        Objects.requireNonNull(report, "report");
        TimestampReply reply;
        OptionalLong due;
        lock.lock();
        try {
            if (failedOtms.contains(otmId)) {
                throw new RejectedReportException("OTM " + otmId + " was declared failed; its CTSs are being recovered and it"
                        + " may not report or get timestamps again under this id");
            }
            if (!server.knows(otmId)) {
                server.register(otmId, report.owedRanges());
            }
            server.report(otmId, report.readableRanges(), report.unusedRanges());
            RangeDecision decision;
            if (!server.mayIssue(otmId)) {
                decision = new RangeDecision.Withhold(WithheldReason.OTM_BACKLOG);
            } else {
                decision = sequencer.decide(otmId, report.latestRangeReceived(), report.takenCount());
            }
            if (decision instanceof RangeDecision.Issue issue) {
                server.issued(otmId, issue.range());
                reply = new TimestampReply(issue.range(), server.snapshotCts(), null);
            } else if (decision instanceof RangeDecision.Resend resend) {
                reply = new TimestampReply(resend.range(), server.snapshotCts(), null);
            } else {
                reply = new TimestampReply(null, server.snapshotCts(), ((RangeDecision.Withhold) decision).reason());
            }
            due = sequencer.persistDue();
        } finally {
            lock.unlock();
        }
        if (due.isPresent()) {
            persist(due.getAsLong());
        }
        return reply;
    }

    private void persist(long markCts) {
        try {
            store.advance(markCts);
        } catch (HighWaterMarkConflictException e) {
            lock.lock();
            try {
                sequencer.fence();
            } finally {
                lock.unlock();
            }
            fenced = true;
            LOG.error("another master advanced the high-water mark; this master stops issuing CTSs: {}", e.getMessage());
            return;
        } catch (IOException e) {
            lock.lock();
            try {
                sequencer.persistFailed(markCts);
            } finally {
                lock.unlock();
            }
            LOG.warn("could not persist high-water mark {} (retried at the next exchange): {}", markCts, e.toString());
            return;
        }
        lock.lock();
        try {
            sequencer.persisted(markCts);
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code otmId} failed (its znode is deleted): it gets no more ranges and its reports are
     * refused. Its CTSs stay owed until {@link #otmRecovered}.
     */
    public void otmFailed(String otmId) {
        lock.lock();
        try {
            if (!failedOtms.contains(otmId) && failedOtms.size() >= otmsMax) {
                throw new IllegalStateException(otmsMax + " OTMs are failed and not recovered; recover some first");
            }
            failedOtms.add(otmId);
            sequencer.forget(otmId);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The failed OTM {@code otmId}'s WAL has been recovered by the new owners of its partitions
     * (its logged commits are readable there) and fenced (it can append nothing more): every CTS it
     * still owed is done, so the snapshot may pass them. Call only after that recovery; calling it
     * earlier could expose a snapshot missing logged commits. The id may then join again as a new
     * OTM.
     *
     * @throws IllegalStateException if {@link #otmFailed} was not called first
     */
    public void otmRecovered(String otmId) {
        lock.lock();
        try {
            if (!failedOtms.remove(otmId)) {
                throw new IllegalStateException("OTM " + otmId + " recovered but was never declared failed: call otmFailed first");
            }
            server.otmRecovered(otmId);
        } finally {
            lock.unlock();
        }
    }

    /**
     * After a master failover: every OTM alive when this master took over has exchanged with it
     * once, and every OTM that failed before doing so has been recovered. The CTSs the previous
     * master issued that nobody claimed are done, and the snapshot can move past them.
     */
    public void inheritedClaimsComplete() {
        lock.lock();
        try {
            server.releaseInherited();
        } finally {
            lock.unlock();
        }
    }

    /** The current snapshot. */
    public long snapshotCts() {
        return server.snapshotCts();
    }

    /** The last CTS issued. */
    public long issuedUpToCts() {
        lock.lock();
        try {
            return sequencer.issuedUpToCts();
        } finally {
            lock.unlock();
        }
    }

    /** The durable high-water mark. */
    public long durableMarkCts() {
        lock.lock();
        try {
            return sequencer.durableMarkCts();
        } finally {
            lock.unlock();
        }
    }

    /** Done ranges waiting behind a gap. */
    public int pendingRanges() {
        lock.lock();
        try {
            return server.pendingRanges();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether another master advanced the high-water mark: this service issues nothing more and
     * the master should step down.
     */
    public boolean fenced() {
        return fenced;
    }
}
