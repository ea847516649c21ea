package org.elastras.otm.txn;

import static org.elastras.otm.txn.TxnTestbed.bytes;
import static org.elastras.otm.txn.TxnTestbed.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.storage.store.PartitionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The horizon the transaction manager hands to flushes and compactions: it trails the snapshot
 * by {@link TransactionManager#GC_HORIZON_LAG_MS}, never passes an open transaction's snapshot,
 * and once handed out, a transaction may no longer begin below it (a read or a branch at an older
 * snapshot is refused, retryable, holding nothing; a plain begin takes the current snapshot). A
 * reader open across a flush that dropped superseded versions still reads what its snapshot saw.
 */
class GcHorizonTrailsTheSnapshotAndRefusesOlderBeginsTest {

    private static final long P = 1;
    private static final long LAG = TransactionManager.GC_HORIZON_LAG_MS;
    private static final BranchCoordinator COORDINATOR = new BranchCoordinator("db", 2, new byte[] {1});

    private TxnTestbed bed;

    @AfterEach
    void close() throws Exception {
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void theHorizonTrailsByTheLagStaysBelowOpenSnapshotsAndRaisesTheFloor() throws Exception {
        bed = new TxnTestbed(P);
        TransactionManager m = bed.manager;
        bed.write(P, "k", "v1");
        long s0 = m.snapshots().snapshot();
        assertEquals(-1, m.gcHorizon(), "no snapshot is a lag old yet");

        bed.write(P, "k", "v2");
        long s1 = m.snapshots().snapshot();
        bed.clockMs.addAndGet(LAG - 1);
        assertEquals(-1, m.gcHorizon(), "the first sample is not yet a lag old");
        bed.clockMs.addAndGet(1);
        assertEquals(s0, m.gcHorizon(), "the snapshot of a lag ago");

        long open = m.begin(P, Isolation.SNAPSHOT, "old-reader");
        assertEquals(s1, m.snapshotOf(open));
        bed.write(P, "k", "v3");
        bed.clockMs.addAndGet(LAG);
        bed.write(P, "k", "v4");
        bed.clockMs.addAndGet(LAG);
        long h = m.gcHorizon();
        assertEquals(s1, h, "bounded by the open transaction's snapshot, not the lagged one");

        // The floor is the highest horizon handed out: begins below it fail.
        int openBefore = m.openTransactions();
        TransactionException tooOld = assertThrows(TransactionException.class, () -> m.beginAt(P, "r", s0));
        assertEquals(Reason.OVERLOADED, tooOld.reason());
        assertTrue(tooOld.getMessage().contains("older than the versions this OTM keeps"), tooOld.getMessage());
        TransactionException branchTooOld = assertThrows(TransactionException.class, () -> m.beginBranch(P,
                Isolation.SNAPSHOT, "c", new CommitTag(System.currentTimeMillis(), 1), s0, COORDINATOR));
        assertEquals(Reason.OVERLOADED, branchTooOld.reason());
        assertEquals(openBefore, m.openTransactions(), "a refused begin holds nothing");

        long atFloor = m.beginAt(P, "r", s1);
        assertEquals("v2", string(m.get(atFloor, bytes("k"))));
        m.commit(atFloor);
        assertEquals("v2", string(m.get(open, bytes("k"))));
        m.commit(open);
    }

    @Test
    void aReaderOpenAcrossAFlushWithTheHorizonReadsItsSnapshotAndLaterFlushesDropTheSuperseded() throws Exception {
        bed = new TxnTestbed(P);
        TransactionManager m = bed.manager;
        bed.gcHorizon = m::gcHorizon;
        PartitionStore store = bed.stores.get(P);
        bed.write(P, "k", "v1");
        m.gcHorizon();
        long reader = m.begin(P, Isolation.SNAPSHOT, "reader");
        for (int i = 2; i <= 6; i++) {
            bed.write(P, "k", "v" + i);
            bed.clockMs.addAndGet(LAG);
        }

        assertTrue(store.flush());
        assertEquals("v1", string(m.get(reader, bytes("k"))), "what the reader's snapshot saw survived the flush");
        assertEquals(0, store.stats().versionsDroppedByFlush(), "nothing above the reader's snapshot is dropped");
        m.commit(reader);

        for (int i = 7; i <= 12; i++) {
            bed.write(P, "k", "v" + i);
        }
        bed.clockMs.addAndGet(LAG);
        m.gcHorizon(); // samples the snapshot after v12
        bed.clockMs.addAndGet(LAG);
        assertTrue(store.flush());
        assertEquals(5, store.stats().versionsDroppedByFlush(), "v7..v11 are superseded by v12 at the horizon: "
                + store.stats());
        assertEquals("v12", bed.read(P, "k"));
    }
}
