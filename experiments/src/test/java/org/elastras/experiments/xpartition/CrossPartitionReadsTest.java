package org.elastras.experiments.xpartition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads of a transaction that spans two partitions on two OTMs, through the routing client, each
 * set against the same reads on one partition. Two of them reproduced what the torture's bank
 * reader and the benchmark met before their fixes: a read-only transaction across partitions
 * failing validation whenever another transaction wrote a key it read, although it read one
 * consistent snapshot; and a scan whose bounds lie in another partition's range, but name different
 * root keys, reading the first partition instead.
 */
class CrossPartitionReadsTest {

    private static TwoPartitionCluster cluster;
    private static ElasTrasClient client;

    private static final long HOME = 0;
    private static final long REMOTE = TwoPartitionCluster.SPAN;

    @BeforeAll
    static void start() throws Exception {
        cluster = TwoPartitionCluster.start(2);
        client = cluster.client();
        cluster.openAccounts(2, 100);
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static long balance(ClientTransaction txn, long id) {
        return (Long) txn.get(TwoPartitionCluster.TABLE, List.of(id)).orElseThrow().get("BALANCE");
    }

    private static void write(long id, long balance) {
        client.runInTransaction(TwoPartitionCluster.DATABASE, List.of(id), txn -> {
            txn.put(TwoPartitionCluster.TABLE, Map.of("ID", id, "BALANCE", balance));
            return null;
        });
    }

    @Test
    void aReadOnlyTransactionOnOnePartitionCommitsAfterAKeyItReadWasWritten() {
        try (ClientTransaction reader = client.transaction(TwoPartitionCluster.DATABASE, List.of(HOME))) {
            long before = balance(reader, HOME + 1);
            write(HOME + 1, before + 1);
            assertEquals(before, balance(reader, HOME + 1), "its snapshot");
            reader.commit();
        }
    }

    /**
     * Failed before the fix with SERIALIZATION_FAILURE ("its branch on partition N voted no"): a
     * coordinated commit validated every branch's reads at a new CTS, read-only or not, so under a
     * steady stream of transfers a reader of every account never committed (the torture's
     * grand-total reader gave up after 40 s of retries). A transaction that wrote nothing anywhere
     * now commits at its snapshot.
     */
    @Test
    void aReadOnlyTransactionAcrossPartitionsCommitsAfterAKeyItReadWasWritten() {
        try (ClientTransaction reader = client.transaction(TwoPartitionCluster.DATABASE, List.of(HOME))) {
            long home = balance(reader, HOME);
            long remote = balance(reader, REMOTE);
            write(REMOTE, remote + 1);
            assertEquals(remote, balance(reader, REMOTE), "its snapshot");
            assertEquals(home, balance(reader, HOME));
            reader.commit(); // Both values come from one snapshot: serializable at it.
        }
    }

    @Test
    void aScanOfTheFirstPartitionsRangeReadsIt() {
        try (ClientTransaction reader = client.transaction(TwoPartitionCluster.DATABASE, List.of(HOME))) {
            assertEquals(2, reader.scan(TwoPartitionCluster.TABLE, List.of(HOME), List.of(HOME + 1), 10).size());
        }
    }

    /**
     * Returned no row before the fix: the client sent a scan to a branch only when both bounds named
     * the same root key, else to the first partition, which clamped the range to its own and found
     * nothing, silently. Now it goes to the partition holding its bounds (bounds in two partitions
     * are refused).
     */
    @Test
    void aScanOfAnotherPartitionsRangeReadsThatPartition() {
        try (ClientTransaction reader = client.transaction(TwoPartitionCluster.DATABASE, List.of(HOME))) {
            assertEquals(2, reader.scan(TwoPartitionCluster.TABLE, List.of(REMOTE), List.of(REMOTE + 1), 10).size());
        }
    }
}
