package org.elastras.master.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A standalone ZooKeeper server inside this JVM (ZooKeeper's own {@link ZooKeeperServerEmbedded}),
 * for a local cluster: it listens on 127.0.0.1 at a free port and keeps its data under a directory.
 * Not for production (one server, no quorum). Start and close from one thread.
 */
final class EmbeddedZooKeeper implements AutoCloseable {

    /**
     * Sessions may last 2 to 20 ticks (1 s to 10 s): the masters' 2 s and the OTMs' 4 s timeouts are
     * granted as asked (with ZooKeeper's usual 2 s tick the masters' would be raised to 4 s).
     */
    private static final int TICK_MS = 500;
    private static final long START_TIMEOUT_MS = 30_000;

    private final ZooKeeperServerEmbedded server;
    private final String connectString;

    private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, String connectString) {
        this.server = server;
        this.connectString = connectString;
    }

    /** Starts a server with its data under {@code directory}; returns once it accepts clients. */
    static EmbeddedZooKeeper start(Path directory) throws Exception {
        Files.createDirectories(directory);
        int port = freePort();
        Properties config = new Properties();
        config.setProperty("tickTime", Integer.toString(TICK_MS));
        config.setProperty("initLimit", "10");
        config.setProperty("syncLimit", "5");
        config.setProperty("clientPort", Integer.toString(port));
        config.setProperty("clientPortAddress", "127.0.0.1");
        config.setProperty("dataDir", directory.resolve("data").toAbsolutePath().toString());
        config.setProperty("admin.enableServer", "false");
        config.setProperty("4lw.commands.whitelist", "ruok,stat");
        ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
                .baseDir(directory.toAbsolutePath())
                .configuration(config)
                .exitHandler(ExitHandler.LOG_ONLY)
                .build();
        try {
            server.start(START_TIMEOUT_MS);
        } catch (Exception e) {
            server.close();
            throw new IOException("the embedded ZooKeeper server did not start on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        return new EmbeddedZooKeeper(server, "127.0.0.1:" + port);
    }

    String connectString() {
        return connectString;
    }

    @Override
    public void close() {
        server.close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
