package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.elastras.master.local.LocalCluster;
import org.elastras.master.local.LocalClusterConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code elastras local} with the experiments module on its class path: next to the demo it
 * creates TPCC (found through {@code META-INF/services}), loads one scaled-down warehouse, checks
 * it, runs the paced TPC-C mix and checks every consistency condition again between its windows.
 * Real ZooKeeper, master and OTM processes.
 */
class LocalClusterRunsTpccNextToTheDemoTest {

    private static final Pattern NEW_ORDERS = Pattern.compile("(\\d+) new orders, (\\d+) failed");

    @TempDir
    Path temp;

    @Test
    void tpccLoadsRunsAndStaysConsistent() throws Exception {
        LocalClusterConfig config = new LocalClusterConfig(temp.resolve("local"), 2, System.getProperty("java.class.path"),
                384, 100, 8, 5, 2, 1, 20, 1_000, 3, 1, 30);
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        LocalCluster cluster = LocalCluster.start(config, new PrintStream(progress, true, StandardCharsets.UTF_8),
                logs -> { });
        try {
            String output = progress.toString(StandardCharsets.UTF_8);
            assertTrue(output.contains("tpcc        database TPCC: 1 warehouses") && output.contains(
                    "every consistency condition holds"), "TPCC was loaded and checked:\n" + output);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            long newOrders = 0;
            String status = null;
            while (newOrders < 10 || !status.contains("consistent (")) {
                status = cluster.tpccStatus();
                assertNotNull(status, "the TPC-C workload runs");
                Matcher m = NEW_ORDERS.matcher(status);
                assertTrue(m.find(), status);
                newOrders = Long.parseLong(m.group(1));
                assertTrue(m.group(2).equals("0"), "no TPC-C transaction failed: " + status);
                assertTrue(!status.contains("VIOLATIONS"), status);
                assertTrue(System.nanoTime() < deadline, "too few new orders or no check within 90 s: " + status);
                Thread.sleep(200);
            }
            assertTrue(status.matches(".*consistent \\(\\d+ checks during the run\\).*"),
                    "every condition held in the checks between windows: " + status);
        } finally {
            cluster.close();
        }
    }
}
