package org.elastras.experiments.xpartition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.junit.jupiter.api.Test;

/**
 * Both partitions on one OTM, cross-partition transactions between them committed, then that OTM
 * stops (its stores unflushed, so the next owner replays its log, prepare records included): the
 * partitions must serve again on the other OTM with every committed transaction. One way (every
 * transaction coordinated by the first partition) and both ways (one coordinated by each). Both ways
 * never opened before the fix, which the torture met: each partition's replay asked the other, not
 * yet serving, for the outcome of its prepared branch, failed its open, and the master retried
 * forever. Now a replay holds such branches in doubt and serves.
 */
class InDoubtBranchesRecoverAfterTheirOtmFailsTest {

    private static final long OPEN = 100;
    private static final long RECOVERY_TIMEOUT_SECONDS = 60;

    private static final long A0 = 0;
    private static final long A1 = 1;
    private static final long B0 = TwoPartitionCluster.SPAN;
    private static final long B1 = TwoPartitionCluster.SPAN + 1;

    @Test
    void transactionsCoordinatedByOnePartitionRecover() throws Exception {
        try (TwoPartitionCluster cluster = TwoPartitionCluster.start(2, TwoPartitionCluster.Placement.TOGETHER)) {
            cluster.openAccounts(2, OPEN);
            transfer(cluster.client(), A0, B0, 10);
            transfer(cluster.client(), A1, B1, 5);

            failOwnerAndAwaitRecovery(cluster);

            assertEquals(List.of(OPEN - 10, OPEN - 5, OPEN + 10, OPEN + 5), balances(cluster.client()));
        }
    }

    @Test
    void transactionsCoordinatedByEachOfTwoPartitionsRecover() throws Exception {
        try (TwoPartitionCluster cluster = TwoPartitionCluster.start(2, TwoPartitionCluster.Placement.TOGETHER)) {
            cluster.openAccounts(2, OPEN);
            transfer(cluster.client(), A0, B0, 10); // coordinated by the first partition
            transfer(cluster.client(), B1, A1, 5); // coordinated by the second

            failOwnerAndAwaitRecovery(cluster);

            assertEquals(List.of(OPEN - 10, OPEN + 5, OPEN + 10, OPEN - 5), balances(cluster.client()));
        }
    }

    /** Moves {@code amount} from {@code from} to {@code to} in a transaction begun on {@code from}'s partition. */
    private static void transfer(ElasTrasClient client, long from, long to, long amount) {
        client.runInTransaction(TwoPartitionCluster.DATABASE, List.of(from), txn -> {
            txn.put(TwoPartitionCluster.TABLE, Map.of("ID", from, "BALANCE", balance(txn, from) - amount));
            txn.put(TwoPartitionCluster.TABLE, Map.of("ID", to, "BALANCE", balance(txn, to) + amount));
            return txn.commit();
        });
    }

    private static long balance(ClientTransaction txn, long id) {
        return (Long) txn.get(TwoPartitionCluster.TABLE, List.of(id)).orElseThrow().get("BALANCE");
    }

    /** Balances of A0, A1, B0, B1, read in one transaction. */
    private static List<Long> balances(ElasTrasClient client) {
        return client.runInTransaction(TwoPartitionCluster.DATABASE, List.of(A0), txn -> List.of(balance(txn, A0), balance(txn, A1),
                balance(txn, B0), balance(txn, B1)));
    }

    private static void failOwnerAndAwaitRecovery(TwoPartitionCluster cluster) throws InterruptedException {
        String owner = cluster.ownerOf(0);
        assertEquals(owner, cluster.ownerOf(1), "both partitions on one OTM: " + cluster.currentPlacement());
        cluster.otm(owner).close(); // no flush: the next owner replays the log
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RECOVERY_TIMEOUT_SECONDS);
        while (true) {
            boolean recovered;
            try {
                recovered = cluster.bothServing() && !owner.equals(cluster.ownerOf(0)) && !owner.equals(cluster.ownerOf(1));
            } catch (RuntimeException e) {
                recovered = false; // the master is reassigning: ask again
            }
            if (recovered) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the partitions of the failed OTM " + owner + " did not serve again within "
                    + RECOVERY_TIMEOUT_SECONDS + " s: " + cluster.currentPlacement());
            Thread.sleep(50);
        }
    }
}
