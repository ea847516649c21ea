package org.elastras.otm.txn;

import static org.elastras.otm.txn.TxnTestbed.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.elastras.otm.txn.TransactionException.Reason;
import org.junit.jupiter.api.Test;

/**
 * Aborted, failed and unfinished transactions leave nothing, neither in the store nor in the WAL:
 * after a crash and recovery of the partitions from the DFS only the committed writes are there.
 */
class AbortedTransactionLeavesNothingAfterRecoveryTest {

    @Test
    void onlyCommittedWritesSurviveACrash() throws Exception {
        try (TxnTestbed bed = new TxnTestbed(1, 2)) {
            TransactionManager m = bed.manager;
            bed.write(1, "committed", "yes");
            bed.write(2, "committed", "two");

            long aborted = m.begin(1, Isolation.SERIALIZABLE);
            m.put(aborted, bytes("aborted"), bytes("no"));
            m.put(aborted, bytes("committed"), bytes("overwritten?"));
            m.abort(aborted);

            long loser = m.begin(1, Isolation.SERIALIZABLE);
            m.get(loser, bytes("committed"));
            m.put(loser, bytes("validation-failed"), bytes("no"));
            bed.write(1, "committed", "again");
            assertEquals(Reason.SERIALIZATION_FAILURE, assertThrows(TransactionException.class,
                    () -> m.commit(loser)).reason());

            long conflicted = m.begin(2, Isolation.SNAPSHOT);
            m.put(conflicted, bytes("conflict-loser"), bytes("no"));
            bed.write(2, "committed", "two-again");
            assertEquals(Reason.CONFLICT, assertThrows(TransactionException.class,
                    () -> m.put(conflicted, bytes("committed"), bytes("no"))).reason());

            long unfinished = m.begin(2, Isolation.SERIALIZABLE);
            m.put(unfinished, bytes("unfinished"), bytes("no"));

            long lastCts = bed.timestamps.last();
            bed.crashAndRecover();

            assertEquals("again", bed.read(1, "committed"));
            assertEquals("two-again", bed.read(2, "committed"));
            for (String k : new String[] {"aborted", "validation-failed"}) {
                assertNull(bed.read(1, k), k);
            }
            for (String k : new String[] {"conflict-loser", "unfinished"}) {
                assertNull(bed.read(2, k), k);
            }
            assertEquals(Reason.UNKNOWN_TRANSACTION, assertThrows(TransactionException.class,
                    () -> bed.manager.commit(unfinished)).reason(), "the new incarnation never heard of it");
            long cts = bed.write(1, "after", "recovery");
            assertTrue(cts > lastCts, "new commits are ordered after recovered ones");
            assertEquals("recovery", bed.read(1, "after"));
        }
    }
}
