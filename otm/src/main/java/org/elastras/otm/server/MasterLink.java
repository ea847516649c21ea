package org.elastras.otm.server;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.ActiveMaster;
import org.elastras.client.HeartbeatChannel;
import org.elastras.client.MasterClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.otm.txn.RangeTimestampSource;

/**
 * The OTM's heartbeat: once per period (sooner when a commit waits for a timestamp range) it sends
 * the active master its timestamp report, and about once a second its load, and hands the reply to
 * the {@link RangeTimestampSource}. Exchanges go over the master's heartbeat port
 * ({@link HeartbeatChannel}) when it announces one, else to its endpoint. The active master is
 * found in ZooKeeper ({@link ZkPaths#activeMaster()}) and looked up again whenever an exchange
 * fails. The master's DECLARED_FAILED answer means it is recovering this OTM's partitions
 * elsewhere: the link stops and tells the node, which stops serving.
 *
 * <p>Threads: one daemon thread runs the exchanges, one at a time; {@link #exchangeNow} may be
 * called from any thread and does not block.
 */
final class MasterLink implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MasterLink.class.getName());
    /** How often the load rides along. */
    static final long LOAD_PERIOD_MS = 1_000;
    /** Bound on one exchange: a dead master must not hold up the next attempt for long. */
    private static final int EXCHANGE_TIMEOUT_MS = 2_000;
    /** Least time between the starts of two exchanges. */
    private static final long EXCHANGE_SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The codec of heartbeat channels: the protocol's default bounds. */
    private static final ProtocolCodec CODEC = new ProtocolCodec();
    /** Most warnings logged per minute about an unreachable master. */
    private static final long WARN_INTERVAL_MS = 5_000;

    private final String otmId;
    /** This run of the OTM: its wal id, as in its ZooKeeper registration. */
    private final String run;
    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final RangeTimestampSource timestamps;
    private final Supplier<OtmLoad> load;
    private final long periodMs;
    private final Runnable declaredFailed;
    private final Thread thread;
    /** Set by {@link #exchangeNow}; the exchange thread clears it when it wakes. */
    private final AtomicBoolean wanted = new AtomicBoolean();
    private volatile boolean closed;

    /** Where the exchanges go: the master's heartbeat port, or its endpoint if it announces none. */
    private record Heartbeats(Function<HeartbeatRequest, HeartbeatResponse> exchange, Runnable close) {
    }

    /** Exchange thread only. */
    private Heartbeats master;
    private String masterId;
    private long lastLoadMs = Long.MIN_VALUE / 2;
    private long lastStartNanos = System.nanoTime() - EXCHANGE_SPACING_NANOS;
    private long lastWarnMs = Long.MIN_VALUE / 2;
    private volatile long lastExchangeMs = -1;
    private volatile long exchanges;

    MasterLink(String otmId, String run, CuratorFramework zk, ZkPaths paths, RangeTimestampSource timestamps, Supplier<OtmLoad> load,
            long periodMs, Runnable declaredFailed) {
        if (periodMs < 1) {
            throw new IllegalArgumentException("heartbeat period must be >= 1 ms, got " + periodMs);
        }
        this.otmId = otmId;
        this.run = run;
        this.zk = zk;
        this.paths = paths;
        this.timestamps = timestamps;
        this.load = load;
        this.periodMs = periodMs;
        this.declaredFailed = declaredFailed;
        this.thread = new Thread(this::run, "otm-master-link");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Asks for an exchange now instead of at the end of the period. Never blocks. */
    void exchangeNow() {
        if (!wanted.getAndSet(true)) {
            LockSupport.unpark(thread);
        }
    }

    /** Successful exchanges so far. */
    long exchanges() {
        return exchanges;
    }

    private void run() {
        while (!closed) {
            // No lock is held while waiting: callers of exchangeNow hold the timestamp source's lock.
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(periodMs);
            while (!closed && !wanted.getAndSet(false) && !timestamps.exchangeWanted()) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    return;
                }
            }
            if (closed) {
                return;
            }
            // However much it is wanted, at most one exchange per EXCHANGE_SPACING_NANOS.
            long sinceLast = System.nanoTime() - lastStartNanos;
            if (sinceLast < EXCHANGE_SPACING_NANOS) {
                LockSupport.parkNanos(this, EXCHANGE_SPACING_NANOS - sinceLast);
            }
            lastStartNanos = System.nanoTime();
            if (!exchangeOnce()) {
                // Failed: do not spin against a dead master; the next attempt comes after a period.
                sleepQuietly(Math.max(periodMs, 20));
            }
        }
    }

    /** Returns whether the exchange succeeded. */
    private boolean exchangeOnce() {
        long now = System.nanoTime() / 1_000_000;
        RangeTimestampSource.NumberedReport report = timestamps.nextReport();
        OtmLoad loadNow = null;
        if (now - lastLoadMs >= LOAD_PERIOD_MS) {
            try {
                loadNow = load.get();
            } catch (RuntimeException e) {
                // The timestamps matter more than the load: exchange them without it.
                warn("cannot sample this OTM's load for the heartbeat: " + e);
            }
        }
        try {
            Heartbeats client = master();
            if (client == null) {
                warn("no active master is announced in ZooKeeper yet");
                return false;
            }
            HeartbeatResponse response = client.exchange().apply(new HeartbeatRequest(otmId, run, report.sequence(),
                    report.report(), loadNow));
            timestamps.accepted(report.sequence(), response.timestamps());
            if (loadNow != null) {
                lastLoadMs = now;
            }
            lastExchangeMs = now;
            exchanges++;
            return true;
        } catch (ElasTrasException e) {
            if (e.code() == ErrorCode.DECLARED_FAILED) {
                LOG.severe("the master declared OTM " + otmId + " failed: " + e.getMessage() + "; stopping");
                closed = true;
                declaredFailed.run();
                return false;
            }
            warn("heartbeat to master " + masterId + " failed (" + e.code() + ": " + e.getMessage()
                    + "); looking the active master up again");
            forgetMaster();
            return false;
        } catch (IllegalStateException e) {
            LOG.log(Level.SEVERE, "refusing the reply of master " + masterId, e);
            forgetMaster();
            return false;
        } catch (Exception e) {
            warn("cannot reach the master: " + e);
            forgetMaster();
            return false;
        }
    }

    private Heartbeats master() throws Exception {
        if (master != null) {
            return master;
        }
        ActiveMaster active = ActiveMaster.read(zk, paths);
        if (active == null) {
            return null;
        }
        masterId = active.masterId();
        if (active.heartbeatPort() > 0) {
            HeartbeatChannel channel = HeartbeatChannel.connect(active.host(), active.heartbeatPort(), EXCHANGE_TIMEOUT_MS,
                    CODEC);
            master = new Heartbeats(channel::heartbeat, channel::close);
        } else {
            MasterClient client = new MasterClient(active.host(), active.port(), OtmClientConfig.defaults()
                    .withRequestTimeoutMs(EXCHANGE_TIMEOUT_MS).withConnectTimeoutMs(EXCHANGE_TIMEOUT_MS));
            master = new Heartbeats(client::heartbeat, client::close);
        }
        LOG.info(() -> "OTM " + otmId + " sends heartbeats to master " + active.masterId() + " at " + active.host() + ":"
                + (active.heartbeatPort() > 0 ? active.heartbeatPort() + " (its heartbeat port)" : active.port()
                + " (its endpoint)"));
        return master;
    }

    private void forgetMaster() {
        if (master != null) {
            try {
                master.close().run();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "closing the master client", e);
            }
            master = null;
        }
    }

    private void warn(String message) {
        long now = System.nanoTime() / 1_000_000;
        if (now - lastWarnMs >= WARN_INTERVAL_MS) {
            lastWarnMs = now;
            LOG.warning(message);
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        exchangeNow();
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        forgetMaster();
    }
}
