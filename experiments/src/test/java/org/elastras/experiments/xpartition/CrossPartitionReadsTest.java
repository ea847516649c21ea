package org.elastras.experiments.xpartition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Reads of a transaction that spans two partitions on two OTMs, through the routing client, each
 * set against the same reads on one partition. Two of them show what the torture's bank reader
 * and the benchmark met (reported for issue 9; disabled until the client or the OTM changes, each
 * with the failure it gives today):
 * a read-only transaction across partitions fails validation whenever another transaction wrote a
 * key it read, although it read one consistent snapshot; and a scan whose bounds lie in another
 * partition's range, but name different root keys, reads the first partition instead.
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
     * Fails today: the commit throws TransactionAbortedException SERIALIZATION_FAILURE ("its branch on
     * partition N voted no"), because a coordinated commit validates every branch's reads at a new
     * CTS, read-only or not (TransactionManager.prepare skips the read-only shortcut when
     * coordinated; voteBranch validates). Under a steady stream of transfers, a reader of every
     * account never commits: in a torture run the grand-total reader gave up after 40 s of retries.
     */
    @Test
    @Disabled("issue 9: a read-only transaction across partitions is validated at a new CTS instead of committing at its snapshot")
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
     * Fails today: the scan returns no row. ClientTransaction.scanPart sends a scan to a branch only
     * when both bounds name the same root key; otherwise to the first partition, which clamps the
     * range to its own and finds nothing. No error says so.
     */
    @Test
    @Disabled("issue 9: a scan over several root keys of another partition goes to the first partition and silently reads nothing")
    void aScanOfAnotherPartitionsRangeReadsThatPartition() {
        try (ClientTransaction reader = client.transaction(TwoPartitionCluster.DATABASE, List.of(HOME))) {
            assertEquals(2, reader.scan(TwoPartitionCluster.TABLE, List.of(REMOTE), List.of(REMOTE + 1), 10).size());
        }
    }
}
