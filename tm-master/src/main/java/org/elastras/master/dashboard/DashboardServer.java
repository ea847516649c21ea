package org.elastras.master.dashboard;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.elastras.master.cluster.Master;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's dashboard on its own port: a Jetty server with the {@link DashboardHandler}, and a
 * sampler thread that records the OTMs' load counters and the timestamp counters into a
 * {@link MetricsHistory} every {@link DashboardConfig#sampleIntervalMs()}. Start with
 * {@link #start} and close once, from the thread that owns the master's lifecycle.
 */
public final class DashboardServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DashboardServer.class);
    private static final int THREADS_MAX = 16;
    private static final long STOP_TIMEOUT_MS = 2_000;
    private static final long IDLE_TIMEOUT_MS = 30_000;

    private final Master master;
    private final DashboardConfig config;
    private final Server server;
    private final ServerConnector connector;
    private final ScheduledExecutorService sampler;
    private final MetricsHistory history;

    private DashboardServer(Master master, DashboardConfig config, LongSupplier wallClockMs) throws IOException {
        this.master = master;
        this.config = config;
        this.history = new MetricsHistory(config.samplesMax());
        QueuedThreadPool threads = new QueuedThreadPool(THREADS_MAX, 2);
        threads.setName("dashboard-" + master.masterId());
        threads.setDaemon(true);
        this.server = new Server(threads);
        server.setStopTimeout(STOP_TIMEOUT_MS);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        this.connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(config.host());
        connector.setPort(config.port());
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        server.addConnector(connector);
        server.setHandler(new DashboardHandler(master, new DashboardViews(master, history, config.sampleIntervalMs(),
                // The clock of the master's MoveView.startedNanos, in this JVM.
                System::nanoTime),
                config, StaticFiles.load()));
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dashboard-sampler-" + master.masterId());
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleAtFixedRate(() -> sample(wallClockMs), 0, config.sampleIntervalMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the dashboard of {@code master} and announces its URL with the master's.
     *
     * @param wallClockMs the time stamped on samples (display only)
     * @throws IOException if the address cannot be bound, saying which
     */
    public static DashboardServer start(Master master, DashboardConfig config, LongSupplier wallClockMs)
            throws IOException {
        DashboardServer dashboard = new DashboardServer(Objects.requireNonNull(master, "master"),
                Objects.requireNonNull(config, "config"), Objects.requireNonNull(wallClockMs, "wallClockMs"));
        try {
            dashboard.server.start();
        } catch (Exception e) {
            dashboard.close();
            throw new IOException("cannot start the dashboard on " + config.host() + ":" + config.port() + ": "
                    + e.getMessage() + "; pick a free port (0 for any)", e);
        }
        master.advertiseDashboard(dashboard.url());
        return dashboard;
    }

    /** A dashboard on the system's wall clock. */
    public static DashboardServer start(Master master, DashboardConfig config) throws IOException {
        return start(master, config, System::currentTimeMillis);
    }

    private void sample(LongSupplier wallClockMs) {
        try {
            history.record(wallClockMs.getAsLong(), master.active() ? master.loads() : Map.of(),
                    master.issuedUpToCts(), master.snapshotCts());
        } catch (RuntimeException e) {
            LOG.warn("sampling the load counters failed", e);
        }
    }

    /** The port it listens on (the chosen one when configured with 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** The page's URL, e.g. {@code http://127.0.0.1:8080/}. */
    public String url() {
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return "http://" + host + ":" + port() + "/";
    }

    /** Stops sampling and serving. Idempotent. */
    @Override
    public void close() {
        sampler.shutdownNow();
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("the dashboard did not stop cleanly", e);
        }
    }
}
