package org.elastras.otm.txn;

import static org.elastras.otm.txn.TxnTestbed.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.elastras.otm.txn.TransactionException.Reason;
import org.junit.jupiter.api.Test;

/**
 * A client whose commit answer was lost asks whether its transaction committed: the answer is
 * right, final, and survives a crash and recovery of the partition.
 */
class CommitResolutionTest {

    @Test
    void aCommittedTransactionIsFoundByItsMarkerAlsoAfterRecovery() throws Exception {
        try (TxnTestbed bed = new TxnTestbed(1)) {
            CommitTag tag = new CommitTag(System.currentTimeMillis(), 11);
            long txn = bed.manager.begin(1, Isolation.SERIALIZABLE, "client", tag);
            bed.manager.put(txn, bytes("k"), bytes("v"));
            long cts = bed.manager.commit(txn).cts();

            TransactionManager.Resolution r = bed.manager.resolve(1, tag, 1_000);
            assertTrue(r.committed());
            assertEquals(cts, r.cts());
            assertArrayEquals(new byte[] {CommitTag.NO_RESULT}, r.markerValue());

            bed.crashAndRecover();
            TransactionManager.Resolution after = bed.manager.resolve(1, tag, 1_000);
            assertTrue(after.committed(), "the marker is durable with the commit");
            assertEquals(cts, after.cts());
        }
    }

    @Test
    void anOpenTransactionIsAbortedByTheResolutionAndItsIdCanNeverCommit() throws Exception {
        try (TxnTestbed bed = new TxnTestbed(1)) {
            CommitTag tag = new CommitTag(System.currentTimeMillis(), 12);
            long txn = bed.manager.begin(1, Isolation.SERIALIZABLE, "client", tag);
            bed.manager.put(txn, bytes("k"), bytes("lost"));

            assertFalse(bed.manager.resolve(1, tag, 1_000).committed());
            assertEquals(Reason.UNKNOWN_TRANSACTION, assertThrows(TransactionException.class,
                    () -> bed.manager.commit(txn)).reason(), "the open transaction was aborted by the resolution");
            assertNull(bed.read(1, "k"));
            assertEquals(Reason.UNKNOWN_TRANSACTION, assertThrows(TransactionException.class,
                    () -> bed.manager.begin(1, Isolation.SERIALIZABLE, "client", tag)).reason(),
                    "a resolved id may not begin again (a late, queued request)");
        }
    }

    @Test
    void anIdNeverSeenResolvesAsNotCommittedAndIsRefusedAfterwards() throws Exception {
        try (TxnTestbed bed = new TxnTestbed(1)) {
            CommitTag tag = new CommitTag(System.currentTimeMillis(), 13);
            assertFalse(bed.manager.resolve(1, tag, 1_000).committed());
            assertThrows(TransactionException.class, () -> bed.manager.begin(1, Isolation.SERIALIZABLE, "client", tag));
            CommitTag other = new CommitTag(System.currentTimeMillis(), 14);
            long txn = bed.manager.begin(1, Isolation.SERIALIZABLE, "client", other);
            assertThrows(TransactionException.class, () -> bed.manager.begin(1, Isolation.SERIALIZABLE, "client", other),
                    "one open transaction per id");
            bed.manager.abort(txn);
        }
    }

    @Test
    void anOtmWhoseLogFailedRefusesToResolveSinceItsRecordMayBeDurable() throws Exception {
        try (TxnTestbed bed = new TxnTestbed(1)) {
            CommitTag tag = new CommitTag(System.currentTimeMillis(), 15);
            long txn = bed.manager.begin(1, Isolation.SERIALIZABLE, "client", tag);
            bed.manager.put(txn, bytes("k"), bytes("maybe"));
            bed.dfs.failWrites(true);
            bed.walFailedOnPurpose = true;
            assertEquals(Reason.LOG_FAILED, assertThrows(TransactionException.class, () -> bed.manager.commit(txn)).reason());
            TransactionException refused = assertThrows(TransactionException.class, () -> bed.manager.resolve(1, tag, 1_000));
            assertEquals(Reason.NOT_OWNER, refused.reason(), "only the partition's next owner, after recovery, can answer");
            CommitTag other = new CommitTag(System.currentTimeMillis(), 16);
            assertEquals(Reason.NOT_OWNER, assertThrows(TransactionException.class,
                    () -> bed.manager.resolve(1, other, 1_000)).reason(), "nor for any other id");
            bed.dfs.failWrites(false);
        }
    }

    @Test
    void markerKeysExpireAfterTheRetention() {
        long now = 1_000_000;
        CommitTag fresh = new CommitTag(now - 5_000, 1);
        CommitTag old = new CommitTag(now - 20_000, 2);
        var expired = CommitTag.expiry(() -> now, 10_000);
        assertFalse(expired.test(fresh.markerKey()));
        assertTrue(expired.test(old.markerKey()));
        assertFalse(expired.test(StorageKeys.rowKey(1, old.markerKey())), "a row key is never a marker");
    }
}
