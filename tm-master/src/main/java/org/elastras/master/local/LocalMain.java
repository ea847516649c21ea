package org.elastras.master.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Collectors;
import org.elastras.client.protocol.PartitionInfo;

/**
 * {@code elastras local}: runs a {@link LocalCluster} until SIGINT/SIGTERM, printing a status line
 * every few seconds. The master's log goes to {@code <data>/logs/master.log}, not the terminal.
 */
public final class LocalMain {

    private LocalMain() {
    }

    public static void main(String[] args) throws Exception {
        // bin/elastras puts --otm-classpath first, so --help may come anywhere.
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.println(LocalClusterConfig.USAGE);
            return;
        }
        LocalClusterConfig config;
        try {
            config = LocalClusterConfig.parse(args, System.getProperty("java.class.path"));
        } catch (IllegalArgumentException e) {
            System.err.println("elastras local: " + e.getMessage());
            System.exit(2);
            return;
        }
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        LocalCluster[] running = new LocalCluster[1];
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.countDown();
            LocalCluster cluster;
            synchronized (running) {
                cluster = running[0];
            }
            if (cluster != null) {
                System.out.println("stopping: workload, masters, OTM processes, ZooKeeper");
                cluster.close();
                System.out.println("stopped");
                System.out.flush();
            }
            stopped.countDown();
        }, "local-shutdown"));

        System.out.println("elastras local: starting a cluster in " + config.dataDirectory().toAbsolutePath().normalize());
        LocalCluster cluster = new LocalCluster(config, System.out);
        synchronized (running) {
            running[0] = cluster; // From here on, Ctrl-C stops what has started so far.
        }
        try {
            cluster.start(logs -> logToFile(logs));
        } catch (Exception e) {
            if (stop.getCount() > 0) {
                System.err.println("elastras local: cannot start: " + e.getMessage());
                System.exit(1);
            }
            stopped.await();
            return;
        }
        System.out.println("ready       Ctrl-C stops everything");
        LocalCluster.Status first = cluster.status();
        long previousCommitted = first.committed();
        long previousMs = first.elapsedMs();
        while (!stop.await(config.statusIntervalMs(), TimeUnit.MILLISECONDS)) {
            LocalCluster.Status s;
            try {
                s = cluster.status();
            } catch (Exception e) {
                System.out.println("status unavailable: " + e.getMessage());
                continue;
            }
            double rate = (s.committed() - previousCommitted) * 1000.0 / Math.max(1, s.elapsedMs() - previousMs);
            previousCommitted = s.committed();
            previousMs = s.elapsedMs();
            String tpcc = cluster.tpccStatus();
            System.out.println(line(s, rate) + (tpcc == null ? "" : " | " + tpcc));
            if (s.lastError() != null && s.errors() > 0) {
                System.out.println("            last error: " + s.lastError());
            }
        }
        stopped.await();
    }

    static String line(LocalCluster.Status s, double committedPerSecond) {
        List<PartitionInfo> parts = s.partitions();
        long serving = parts.stream().filter(p -> p.state().equals("SERVING")).count();
        String owners = parts.stream()
                .map(p -> p.partitionId() + "@" + (p.state().equals("SERVING") ? p.owner() : p.state().toLowerCase()))
                .collect(Collectors.joining(" "));
        return String.format("[%5.0fs] masters %d/%d alive, %s active | otms %d/%d alive | partitions %d/%d serving: %s"
                + " | committed %.0f txn/s (total %,d) | slowest %d ms | errors %d", s.elapsedMs() / 1000.0,
                s.mastersAlive(), LocalCluster.MASTERS, s.activeMaster(), s.otmsAlive(), s.otms(), serving, parts.size(),
                owners, committedPerSecond, s.committed(), s.slowestMs(), s.errors());
    }

    /**
     * Sends this process's logs to files instead of the terminal: java.util.logging (the launcher
     * and its client) to {@code local.log}, slf4j-simple (the embedded ZooKeeper server, Curator) to
     * {@code zookeeper.log}. The masters and OTMs log to files of their own.
     */
    private static void logToFile(Path logs) throws IOException {
        Files.createDirectories(logs);
        // Read by slf4j-simple when the first logger is made, which is after this (ZooKeeper starts next).
        System.setProperty("org.slf4j.simpleLogger.logFile", logs.resolve("zookeeper.log").toString());
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        Path file = logs.resolve("local.log");
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        FileHandler handler = new FileHandler(file.toAbsolutePath().toString(), true);
        handler.setFormatter(new SimpleFormatter());
        root.addHandler(handler);
    }
}
