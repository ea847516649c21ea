package org.elastras.master.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.master.AdminMain;
import org.elastras.master.admin.AdminCommandLineRefusesBadInputTest.Ran;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin commands, run in-process against a real cluster (ZooKeeper, three OTMs, two
 * masters): {@code partitions} lists the map; {@code move} prints the start and the time until the
 * partition serves at the destination; refused requests exit 1 with the master's reason and change
 * nothing; a move that does not finish within {@code --timeout-ms} exits 3 and goes on;
 * {@code drain} waits until the OTM owns nothing and {@code --stop} ends it; {@code balance
 * --dry-run} prints the plan and changes nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminCommandLineMovesAndDrainsTest {

    @TempDir
    static Path temp;

    private static AdminTestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = new AdminTestCluster(temp);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Ran run(String... args) {
        String[] withZk = new String[args.length + 2];
        withZk[0] = args[0];
        withZk[1] = "--zk";
        withZk[2] = cluster.connectString();
        System.arraycopy(args, 1, withZk, 3, args.length - 1);
        return AdminCommandLineRefusesBadInputTest.run(withZk);
    }

    @Test
    @Order(1)
    void partitionsListsEveryPartitionAndTheMoves() {
        Ran ran = run("partitions", "--root", "/elastras");
        assertEquals(AdminMain.EXIT_OK, ran.exitCode(), ran.toString());
        List<String> lines = ran.out().lines().toList();
        assertTrue(lines.get(0).matches("ID\\s+DATABASE\\s+OWNER\\s+EPOCH\\s+STATE\\s+ROOT KEYS"), lines.get(0));
        assertEquals(6, lines.size(), ran.out());
        for (PartitionInfo p : cluster.client.admin().partitions(null)) {
            assertTrue(lines.stream().anyMatch(l -> l.matches(p.partitionId() + "\\s+" + p.database() + "\\s+" + p.owner()
                    + "\\s+" + p.epoch() + "\\s+SERVING\\s+.*")), "no line for " + p + " in\n" + ran.out());
        }
        assertTrue(lines.stream().anyMatch(l -> l.matches("3\\s+STOCK\\s+otm-\\d\\s+1\\s+SERVING\\s+\\[-inf, \\[100\\]\\)")),
                ran.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("4\\s+STOCK\\s+otm-\\d\\s+1\\s+SERVING\\s+\\[\\[100\\], \\+inf\\)")),
                ran.out());
        assertEquals("draining: none; moves finished: 0", lines.get(5));
    }

    @Test
    @Order(2)
    void movePrintsTheStartAndTheTimeUntilItServesAtTheDestination() {
        PartitionInfo before = cluster.partition(4);
        String to = cluster.otherThan(before.owner());

        Ran ran = run("move", "4", to);

        assertEquals(AdminMain.EXIT_OK, ran.exitCode(), ran.toString());
        List<String> lines = ran.out().lines().toList();
        assertEquals(2, lines.size(), ran.out());
        assertEquals("moving partition 4 (STOCK) from " + before.owner() + " to " + to + ": started at epoch "
                + before.epoch() + ", CLOSING", lines.get(0));
        Matcher done = Pattern.compile("partition 4 serves at " + to + ", epoch " + (before.epoch() + 1)
                + ", after (\\d+) ms").matcher(lines.get(1));
        assertTrue(done.matches(), lines.get(1));
        assertTrue(Long.parseLong(done.group(1)) < AdminTestCluster.WAIT_MS, lines.get(1));
        PartitionInfo after = cluster.partition(4);
        assertEquals(to, after.owner());
        assertEquals("SERVING", after.state());
        assertTrue(cluster.otmServes(to, 4));
    }

    @Test
    @Order(3)
    void refusedRequestsExitOneWithTheMastersReasonAndChangeNothing() {
        List<PartitionInfo> before = cluster.client.admin().partitions(null);
        String owner = cluster.partition(4).owner();

        Ran sameOwner = run("move", "4", owner);
        assertEquals(AdminMain.EXIT_FAILED, sameOwner.exitCode(), sameOwner.toString());
        assertEquals("elastras move: REFUSED: partition 4 cannot move to " + owner + ": OTM " + owner
                + " serves it already\n", sameOwner.err());
        assertEquals("", sameOwner.out());

        Ran unknownPartition = run("move", "99", "otm-1");
        assertEquals(AdminMain.EXIT_FAILED, unknownPartition.exitCode());
        assertTrue(unknownPartition.err().contains("REFUSED: partition 99 cannot move to otm-1: there is no partition 99"),
                unknownPartition.err());

        Ran unknownOtm = run("move", "4", "otm-9");
        assertEquals(AdminMain.EXIT_FAILED, unknownOtm.exitCode());
        assertTrue(unknownOtm.err().contains("OTM otm-9 is not live"), unknownOtm.err());

        Ran drainUnknown = run("drain", "otm-9");
        assertEquals(AdminMain.EXIT_FAILED, drainUnknown.exitCode());
        assertTrue(drainUnknown.err().contains("elastras drain: REFUSED: OTM otm-9 is not live"), drainUnknown.err());

        assertEquals(before, cluster.client.admin().partitions(null), "a refused command changed the map");
        assertEquals(List.of(), cluster.client.admin().moves().draining());
    }

    @Test
    @Order(4)
    void aMoveThatOutlastsTheTimeoutExitsThreeAndGoesOn() throws Exception {
        PartitionInfo before = cluster.partition(3);
        String to = cluster.otherThan(before.owner());

        Ran ran = run("move", "--timeout-ms", "1", "3", to);

        assertEquals(AdminMain.EXIT_TIMED_OUT, ran.exitCode(), ran.toString());
        assertTrue(ran.out().startsWith("moving partition 3 (STOCK) from " + before.owner() + " to " + to), ran.out());
        assertTrue(ran.err().startsWith("partition 3 does not serve at " + to + " after "), ran.err());
        assertTrue(ran.err().contains("the move goes on"), ran.err());
        cluster.awaitPartitions("partition 3 serving at " + to, ps -> ps.stream().anyMatch(p -> p.partitionId() == 3
                && p.owner().equals(to) && p.state().equals("SERVING") && p.epoch() == before.epoch() + 1));
    }

    @Test
    @Order(5)
    void drainWaitsUntilTheOtmOwnsNothingAndStopEndsIt() throws Exception {
        String drained = cluster.partition(1).owner(); // ROOT's owner: the catalog moves too.

        Ran ran = run("drain", drained);

        assertEquals(AdminMain.EXIT_OK, ran.exitCode(), ran.toString());
        List<String> lines = ran.out().lines().toList();
        assertEquals("draining " + drained + "; draining now: " + drained, lines.get(0));
        assertTrue(lines.get(lines.size() - 1).matches(Pattern.quote(drained) + " owns no partition after \\d+ ms"),
                ran.out());
        assertTrue(cluster.client.admin().partitions(null).stream().noneMatch(p -> drained.equals(p.owner())),
                "the drained OTM still owns a partition");
        assertEquals(List.of(drained), cluster.client.admin().moves().draining());

        Ran stop = run("drain", drained, "--stop");
        assertEquals(AdminMain.EXIT_OK, stop.exitCode(), stop.toString());
        assertEquals("stopped draining " + drained + "; draining now: none\n", stop.out());
        assertEquals(List.of(), cluster.client.admin().moves().draining());
        cluster.awaitPartitions("everything serving", ps -> ps.stream().allMatch(p -> p.state().equals("SERVING")));
    }

    @Test
    @Order(6)
    void balanceDryRunPrintsThePlanAndChangesNothing() {
        List<PartitionInfo> before = cluster.client.admin().partitions(null);

        Ran ran = run("balance", "--dry-run");

        assertEquals(AdminMain.EXIT_OK, ran.exitCode(), ran.toString());
        assertTrue(ran.out().startsWith("balance plan at "), ran.out());
        assertTrue(ran.out().endsWith("\n"));
        assertEquals(cluster.client.admin().balancePlan().text().lines().count(), ran.out().lines().count(), ran.out());
        assertEquals(before, cluster.client.admin().partitions(null), "the dry run changed the map");
        assertEquals(List.of(), cluster.client.admin().moves().moves());
    }
}
