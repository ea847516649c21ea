package org.elastras.master;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.master.cluster.ClusterLimits;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.dashboard.DashboardConfig;
import org.elastras.master.dashboard.DashboardServer;

/**
 * The master process: {@code elastras master --zk CONNECT --dfs URI [options]}. Joins the election,
 * prints {@code ELASTRAS-MASTER READY id=<id> port=<port>} (and {@code dashboard=<url>} when it
 * serves one) once connected and
 * {@code ELASTRAS-MASTER ACTIVE id=<id>} when elected, and stops cleanly on SIGTERM/Ctrl-C (a
 * standby then takes over).
 */
public final class MasterMain {

    static final String USAGE = String.join("\n",
            "usage: elastras master --zk HOST:PORT[,...] --dfs URI [options]",
            "  --zk CONNECT       ZooKeeper connect string",
            "  --dfs URI          the OTMs' DFS root: file:/path or hdfs://namenode:port/path",
            "  --id ID            this master's id in the election (default master-1; unique among masters)",
            "  --zk-root PATH     root znode (default " + ZkPaths.DEFAULT_ROOT + ")",
            "  --host HOST        address the endpoint (heartbeats, admin) listens on (default 127.0.0.1)",
            "  --port PORT        its port (default 0: any free port)",
            "  --heartbeat-timeout-ms MS  an OTM silent this long is declared failed (default "
                    + MasterConfig.DEFAULT_HEARTBEAT_TIMEOUT_MS + ")",
            "  --zk-session-timeout-ms MS  this master's ZooKeeper session: a standby takes over about this long"
                    + " after it dies (default " + MasterConfig.DEFAULT_SESSION_TIMEOUT_MS + ")",
            "  --dashboard-port PORT  serve the dashboard (page, JSON API, /metrics, /health, /ready) on this port"
                    + " (0: any free port; default: no dashboard)",
            "  --admin-token TOKEN    the token the dashboard's admin actions need (Authorization: Bearer TOKEN);"
                    + " without it they are refused",
            "  --open-reads           let anyone read the dashboard and /metrics (default: reads need the token too)",
            "  --coordinated-moves    move partitions (drains, the balancer, moves without a mode) by closing and"
                    + " reopening them instead of live",
            "  --help             this text",
            "  Any number of masters may run; one is elected, the others wait as standbys.");

    private MasterMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        MasterConfig config;
        DashboardConfig dashboardConfig;
        try {
            config = parse(args);
            dashboardConfig = parseDashboard(args, config.host());
        } catch (IllegalArgumentException e) {
            System.err.println("elastras master: " + e.getMessage());
            System.exit(2);
            return;
        }
        Master master;
        try {
            master = Master.start(config);
        } catch (Exception e) {
            System.err.println("elastras master: cannot start master " + config.masterId() + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        DashboardServer dashboard = null;
        if (dashboardConfig != null) {
            try {
                dashboard = DashboardServer.start(master, dashboardConfig);
            } catch (Exception e) {
                System.err.println("elastras master: " + e.getMessage());
                master.close();
                System.exit(1);
                return;
            }
        }
        DashboardServer dashboardToClose = dashboard;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (dashboardToClose != null) {
                dashboardToClose.close();
            }
            master.close();
            stopped.countDown();
        }, "master-shutdown"));
        System.out.println("ELASTRAS-MASTER READY id=" + config.masterId() + " port=" + master.port()
                + (dashboard == null ? "" : " dashboard=" + dashboard.url()) + " zk=" + config.zkConnect());
        System.out.flush();
        boolean announced = false;
        while (!stopped.await(100, TimeUnit.MILLISECONDS)) {
            if (master.active() != announced) {
                announced = master.active();
                System.out.println((announced ? "ELASTRAS-MASTER ACTIVE id=" : "ELASTRAS-MASTER STANDBY id=")
                        + config.masterId());
                System.out.flush();
            }
        }
    }

    /**
     * Parses command-line arguments.
     *
     * @throws IllegalArgumentException with a message naming the bad or missing argument
     */
    static MasterConfig parse(String[] args) {
        String id = "master-1";
        String zk = null;
        String root = ZkPaths.DEFAULT_ROOT;
        String dfs = null;
        String host = "127.0.0.1";
        int port = 0;
        long heartbeatTimeoutMs = MasterConfig.DEFAULT_HEARTBEAT_TIMEOUT_MS;
        int sessionTimeoutMs = MasterConfig.DEFAULT_SESSION_TIMEOUT_MS;
        boolean coordinatedMoves = false;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
            if (flag.equals("--open-reads")) {
                continue;
            }
            if (flag.equals("--coordinated-moves")) {
                coordinatedMoves = true;
                continue;
            }
            if (DASHBOARD_FLAGS.contains(flag)) {
                if (rest.isEmpty()) {
                    throw new IllegalArgumentException("missing value after " + flag);
                }
                rest.remove(0);
                continue;
            }
            if (!List.of("--id", "--zk", "--zk-root", "--dfs", "--host", "--port", "--heartbeat-timeout-ms",
                    "--zk-session-timeout-ms").contains(flag)) {
                throw new IllegalArgumentException("unknown argument '" + flag + "' (see elastras master --help)");
            }
            if (rest.isEmpty()) {
                throw new IllegalArgumentException("missing value after " + flag);
            }
            String value = rest.remove(0);
            switch (flag) {
                case "--id" -> id = value;
                case "--zk" -> zk = value;
                case "--zk-root" -> root = value;
                case "--dfs" -> dfs = value;
                case "--host" -> host = value;
                case "--port" -> port = number(flag, value);
                case "--heartbeat-timeout-ms" -> heartbeatTimeoutMs = number(flag, value);
                case "--zk-session-timeout-ms" -> sessionTimeoutMs = number(flag, value);
                default -> throw new IllegalStateException("flag list and switch disagree on " + flag);
            }
        }
        if (zk == null) {
            throw new IllegalArgumentException("--zk is required: the ZooKeeper connect string, e.g. 127.0.0.1:2181");
        }
        if (dfs == null) {
            throw new IllegalArgumentException("--dfs is required: file:/path or hdfs://namenode:port/path");
        }
        URI dfsUri;
        try {
            dfsUri = URI.create(dfs);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--dfs is not a URI: '" + dfs + "'");
        }
        return MasterConfig.defaults(id, zk, root, dfsUri).withAddress(host, port).withHeartbeatTimeoutMs(heartbeatTimeoutMs)
                .withZkSessionTimeoutMs(sessionTimeoutMs).withLimits(ClusterLimits.DEFAULT.withLiveMoves(!coordinatedMoves));
    }

    private static final List<String> DASHBOARD_FLAGS = List.of("--dashboard-port", "--admin-token");

    /**
     * Parses the dashboard's flags ({@code --dashboard-port}, {@code --admin-token},
     * {@code --open-reads}); null when no dashboard is asked for. Other flags are {@link #parse}'s.
     *
     * @throws IllegalArgumentException for a bad value, or a dashboard nobody could read
     */
    static DashboardConfig parseDashboard(String[] args, String host) {
        Integer port = null;
        String token = null;
        boolean openReads = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--open-reads" -> openReads = true;
                case "--dashboard-port" -> port = i + 1 < args.length ? number(args[i], args[++i]) : null;
                case "--admin-token" -> token = i + 1 < args.length ? args[++i] : null;
                default -> {
                    // Not a dashboard flag; skip its value too, so a value is never taken for a flag.
                    if (!args[i].equals("--open-reads") && !args[i].equals("--coordinated-moves") && args[i].startsWith("--")
                            && i + 1 < args.length) {
                        i++;
                    }
                }
            }
        }
        if (port == null) {
            if (token != null || openReads) {
                throw new IllegalArgumentException("--admin-token and --open-reads need --dashboard-port");
            }
            return null;
        }
        if (token == null && !openReads) {
            throw new IllegalArgumentException("a dashboard without --admin-token and without --open-reads could be"
                    + " read by nobody; give either or both");
        }
        return DashboardConfig.of(host, port, token, openReads);
    }

    private static int number(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
        }
    }
}
