package org.elastras.master;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;

/**
 * The master process: {@code elastras master --zk CONNECT --dfs URI [options]}. Joins the election,
 * prints {@code ELASTRAS-MASTER READY id=<id> port=<port>} once connected and
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
        try {
            config = parse(args);
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
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            master.close();
            stopped.countDown();
        }, "master-shutdown"));
        System.out.println("ELASTRAS-MASTER READY id=" + config.masterId() + " port=" + master.port() + " zk="
                + config.zkConnect());
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
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
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
                .withZkSessionTimeoutMs(sessionTimeoutMs);
    }

    private static int number(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
        }
    }
}
