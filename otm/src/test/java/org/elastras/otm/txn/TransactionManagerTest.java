package org.elastras.otm.txn;

import static org.elastras.otm.txn.TxnTestbed.bytes;
import static org.elastras.otm.txn.TxnTestbed.string;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The byte-level transaction manager, driven one step at a time on real stores and a real WAL. */
class TransactionManagerTest {

    private static final long P = 7;

    private TxnTestbed bed;

    @AfterEach
    void close() throws Exception {
        if (bed != null) {
            bed.close();
        }
    }

    private TransactionManager manager(TransactionLimits limits) throws Exception {
        bed = new TxnTestbed(limits, P);
        return bed.manager;
    }

    private TransactionManager manager() throws Exception {
        return manager(TransactionLimits.DEFAULT);
    }

    private static List<String> keysOf(List<KeyValue> rows) {
        return rows.stream().map(kv -> string(kv.key()) + "=" + string(kv.value())).toList();
    }

    @Test
    void readYourOwnWritesInGetAndScan() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "a", "1");
        bed.write(P, "b", "2");
        bed.write(P, "d", "4");

        long t = m.begin(P, Isolation.SERIALIZABLE);
        m.put(t, bytes("b"), bytes("22"));
        m.put(t, bytes("c"), bytes("3"));
        m.delete(t, bytes("d"));
        m.put(t, bytes("e"), bytes("5"));
        m.delete(t, bytes("e"));
        assertEquals("22", string(m.get(t, bytes("b"))));
        assertEquals("3", string(m.get(t, bytes("c"))));
        assertNull(m.get(t, bytes("d")), "own delete hides the stored row");
        assertNull(m.get(t, bytes("e")), "put then delete");
        assertEquals(List.of("a=1", "b=22", "c=3"), keysOf(m.scan(t, null, null, 100)));
        assertEquals(List.of("a=1", "b=22"), keysOf(m.scan(t, null, null, 2)));
        assertEquals(List.of("b=22", "c=3"), keysOf(m.scan(t, bytes("b"), bytes("d"), 100)));

        // Other transactions see none of it until the commit.
        assertEquals("2", bed.read(P, "b"));
        assertNull(bed.read(P, "c"));
        m.commit(t);
        assertEquals("22", bed.read(P, "b"));
        assertEquals("3", bed.read(P, "c"));
        assertNull(bed.read(P, "d"));
    }

    @Test
    void aPauseWhoseGraceEndsWithATransactionOpenNamesIt() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "a", "1");
        long open = m.begin(P, Isolation.SERIALIZABLE);
        m.put(open, bytes("a"), bytes("2"));

        TransactionManager.Stopped stopped = m.stopAdmitting(P, 20, 20);

        assertEquals(1, stopped.othersAtPause());
        assertEquals(1, stopped.stillOpen());
        assertTrue(stopped.firstStillOpen().matches("transaction " + open + " \\(ACTIVE for \\d+ ms, an interactive"
                + " transaction\\)"), stopped.firstStillOpen());
        assertTrue(stopped.describe().endsWith("1 still open: " + stopped.firstStillOpen()), stopped.describe());
        m.abort(open);
        TransactionManager.Stopped again = m.stopAdmitting(P, 20, 20);
        assertEquals(0, again.stillOpen());
        assertNull(again.firstStillOpen());
        assertTrue(again.describe().endsWith("0 still open"), again.describe());
    }

    @Test
    void aPauseAbortsABranchThatHasNotVotedAfterTheBranchGraceAndTheCoordinatorLearnsItOnItsNextRequest()
            throws Exception {
        TransactionManager m = manager();
        bed.write(P, "a", "1");
        long reader = m.begin(P, Isolation.SNAPSHOT);
        long snapshot = m.snapshotOf(reader);
        m.commit(reader);
        // A branch whose coordinator never comes back within the pause: it waits, say, for a
        // transaction whose branch begin this very pause holds.
        long branch = m.beginBranch(P, Isolation.SNAPSHOT, "c", new CommitTag(System.currentTimeMillis(), 3), snapshot,
                new BranchCoordinator("db", 2, new byte[] {1}));
        m.put(branch, bytes("a"), bytes("2"));

        long began = System.nanoTime();
        TransactionManager.Stopped stopped = m.stopAdmitting(P, 5_000, 10);
        long tookMs = (System.nanoTime() - began) / 1_000_000;

        assertEquals(1, stopped.branchesAtPause());
        assertEquals(1, stopped.branchesAborted());
        assertEquals(0, stopped.stillOpen(), stopped.describe());
        assertTrue(tookMs < 5_000, "the pause waited " + tookMs + " ms: the whole grace, not the branch's");
        assertTrue(stopped.describe().contains("1 branches to re-run"), stopped.describe());
        TransactionException next = assertThrows(TransactionException.class, () -> m.get(branch, bytes("a")));
        assertEquals(Reason.NOT_OWNER, next.reason(), next.getMessage());
        m.resumeAdmitting(P); // the move was given up, say
        assertEquals("1", bed.read(P, "a"), "the aborted branch wrote nothing");
    }

    @Test
    void aPauseWaitsTheWholeGraceForAnInteractiveTransactionWhateverTheBranchGrace() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "a", "1");
        long interactive = m.begin(P, Isolation.SNAPSHOT);
        m.get(interactive, bytes("a"));

        TransactionManager.Stopped stopped = m.stopAdmitting(P, 60, 1);

        assertEquals(0, stopped.branchesAborted());
        assertEquals(1, stopped.stillOpen(), "an interactive transaction is not re-run by anyone: it keeps its grace");
        assertEquals("1", string(m.get(interactive, bytes("a"))), "still open after the grace");
        m.abort(interactive);
    }

    @Test
    void aSnapshotDoesNotSeeLaterCommits() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "x", "old");
        long reader = m.begin(P, Isolation.SNAPSHOT);
        bed.write(P, "x", "new");
        bed.write(P, "y", "new");
        assertEquals("old", string(m.get(reader, bytes("x"))));
        assertNull(m.get(reader, bytes("y")));
        assertEquals(List.of("x=old"), keysOf(m.scan(reader, null, null, 10)));
        assertTrue(m.commit(reader).readOnly());
    }

    @Test
    void firstUpdaterWinsAndTheSecondWriterAbortsAtItsWrite() throws Exception {
        TransactionManager m = manager();
        long first = m.begin(P, Isolation.SNAPSHOT);
        long second = m.begin(P, Isolation.SNAPSHOT);
        m.put(first, bytes("k"), bytes("first"));
        TransactionException e = assertThrows(TransactionException.class, () -> m.put(second, bytes("k"), bytes("second")));
        assertEquals(Reason.CONFLICT, e.reason());
        assertTrue(e.transactionAborted());
        assertEquals(first, e.blockingTransactionId());
        assertEquals(Reason.UNKNOWN_TRANSACTION, assertThrows(TransactionException.class,
                () -> m.get(second, bytes("k"))).reason(), "the loser is gone at once, not at its commit");
        m.commit(first);
        assertEquals("first", bed.read(P, "k"));
    }

    @Test
    void aWriteOfAKeyCommittedAfterTheSnapshotConflicts() throws Exception {
        TransactionManager m = manager();
        long late = m.begin(P, Isolation.SNAPSHOT);
        long cts = bed.write(P, "k", "winner");
        TransactionException e = assertThrows(TransactionException.class, () -> m.delete(late, bytes("k")));
        assertEquals(Reason.CONFLICT, e.reason());
        assertEquals(cts, e.conflictCts());
        assertEquals("winner", bed.read(P, "k"));
        assertEquals(0, m.intentsHeld(P));
    }

    @Test
    void writeSkewCommitsUnderSnapshotIsolation() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "x", "1");
        bed.write(P, "y", "1");
        long t1 = m.begin(P, Isolation.SNAPSHOT);
        long t2 = m.begin(P, Isolation.SNAPSHOT);
        for (long t : new long[] {t1, t2}) {
            m.get(t, bytes("x"));
            m.get(t, bytes("y"));
        }
        m.put(t1, bytes("x"), bytes("0"));
        m.put(t2, bytes("y"), bytes("0"));
        m.commit(t1);
        m.commit(t2);
        assertEquals("0", bed.read(P, "x"));
        assertEquals("0", bed.read(P, "y"), "both withdrawals went through: the write skew SNAPSHOT allows");
    }

    @Test
    void writeSkewIsPreventedUnderSerializable() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "x", "1");
        bed.write(P, "y", "1");
        long t1 = m.begin(P, Isolation.SERIALIZABLE);
        long t2 = m.begin(P, Isolation.SERIALIZABLE);
        for (long t : new long[] {t1, t2}) {
            m.get(t, bytes("x"));
            m.get(t, bytes("y"));
        }
        m.put(t1, bytes("x"), bytes("0"));
        m.put(t2, bytes("y"), bytes("0"));
        m.commit(t1);
        TransactionException e = assertThrows(TransactionException.class, () -> m.commit(t2));
        assertEquals(Reason.SERIALIZATION_FAILURE, e.reason());
        assertTrue(e.transactionAborted());
        assertEquals("0", bed.read(P, "x"));
        assertEquals("1", bed.read(P, "y"), "exactly one of the two committed");
        assertEquals(0, m.intentsHeld(P));
        assertEquals(bed.timestamps.last(), bed.snapshots.snapshot(), "the failed commit's CTS was reported unused");
    }

    @Test
    void aPhantomInAScannedRangeFailsSerializableButNotSnapshot() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "row1", "a");
        long serializable = m.begin(P, Isolation.SERIALIZABLE);
        long snapshot = m.begin(P, Isolation.SNAPSHOT);
        for (long t : new long[] {serializable, snapshot}) {
            assertEquals(1, m.scan(t, bytes("row"), bytes("rox"), 10).size());
            m.put(t, bytes("count-" + t), bytes("1"));
        }
        bed.write(P, "row2", "b");
        m.commit(snapshot);
        assertEquals(Reason.SERIALIZATION_FAILURE,
                assertThrows(TransactionException.class, () -> m.commit(serializable)).reason());
    }

    @Test
    void aDeleteOfAScannedRowFailsSerializable() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "row1", "a");
        bed.write(P, "row2", "b");
        long t = m.begin(P, Isolation.SERIALIZABLE);
        assertEquals(2, m.scan(t, bytes("row"), bytes("rox"), 10).size());
        m.put(t, bytes("sum"), bytes("2"));
        long d = m.begin(P, Isolation.SERIALIZABLE);
        m.delete(d, bytes("row2"));
        m.commit(d);
        assertEquals(Reason.SERIALIZATION_FAILURE, assertThrows(TransactionException.class, () -> m.commit(t)).reason());
    }

    @Test
    void writesBeyondTheScannedPartOfALimitedScanDoNotFailIt() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "row1", "a");
        bed.write(P, "row2", "b");
        long t = m.begin(P, Isolation.SERIALIZABLE);
        assertEquals(1, m.scan(t, bytes("row"), bytes("rox"), 1).size());
        m.put(t, bytes("first"), bytes("row1"));
        bed.write(P, "row3", "c");
        m.commit(t);
        assertEquals("row1", bed.read(P, "first"));
    }

    @Test
    void readOnlyTransactionsLogNothing() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "k", "v");
        WalPosition before = bed.wal.endPosition();
        long t = m.begin(P, Isolation.SERIALIZABLE);
        m.get(t, bytes("k"));
        m.scan(t, null, null, 10);
        bed.write(P, "k", "changed meanwhile");
        WalPosition afterOtherCommit = bed.wal.endPosition();
        CommitResult r = m.commit(t);
        assertTrue(r.readOnly());
        assertEquals(afterOtherCommit, bed.wal.endPosition(), "no record for a read-only transaction");
        assertTrue(afterOtherCommit.compareTo(before) > 0);
    }

    @Test
    void abortReleasesEverythingAndLeavesNothing() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "k", "kept");
        WalPosition before = bed.wal.endPosition();
        long t = m.begin(P, Isolation.SERIALIZABLE, "c1");
        m.put(t, bytes("k"), bytes("dropped"));
        m.put(t, bytes("other"), bytes("dropped"));
        assertEquals(2, m.intentsHeld(P));
        assertTrue(m.abort(t));
        assertFalse(m.abort(t), "abort twice is a no-op");
        assertEquals(0, m.intentsHeld(P));
        assertEquals(0, m.openTransactions());
        assertEquals(before, bed.wal.endPosition());
        assertEquals("kept", bed.read(P, "k"));
        assertNull(bed.read(P, "other"));
        assertEquals(Reason.UNKNOWN_TRANSACTION, assertThrows(TransactionException.class, () -> m.commit(t)).reason());
        bed.write(P, "other", "free");
    }

    @Test
    void theIdleTimeoutAbortsAnAbandonedTransactionAndFreesItsIntents() throws Exception {
        TransactionManager m = manager(TransactionLimits.DEFAULT.withIdleTimeoutMs(500));
        long abandoned = m.begin(P, Isolation.SERIALIZABLE, "gone");
        m.put(abandoned, bytes("hot"), bytes("never"));
        long busy = m.begin(P, Isolation.SERIALIZABLE, "busy");

        bed.clockMs.addAndGet(300);
        m.get(busy, bytes("x"));
        assertEquals(0, m.reap(bed.clockMs.get()), "nobody idle for 500 ms yet");
        bed.clockMs.addAndGet(200);
        assertEquals(1, m.reap(bed.clockMs.get()), "only the abandoned transaction is idle 500 ms");
        assertEquals(1, m.openTransactions());
        assertEquals(0, m.intentsHeld(P));

        bed.write(P, "hot", "someone else");
        assertEquals("someone else", bed.read(P, "hot"));
        TransactionException e = assertThrows(TransactionException.class, () -> m.commit(abandoned));
        assertEquals(Reason.TIMEOUT, e.reason(), "the late client learns it timed out");
        m.commit(busy);
    }

    @Test
    void writeSetLimitsRejectTheWriteAndChangeNothing() throws Exception {
        TransactionManager m = manager(TransactionLimits.DEFAULT.withWriteSet(2, 100));
        long t = m.begin(P, Isolation.SERIALIZABLE);
        m.put(t, bytes("a"), bytes("1"));
        m.put(t, bytes("b"), bytes("2"));
        TransactionException keys = assertThrows(TransactionException.class, () -> m.put(t, bytes("c"), bytes("3")));
        assertEquals(Reason.LIMIT_EXCEEDED, keys.reason());
        assertFalse(keys.transactionAborted());
        TransactionException size = assertThrows(TransactionException.class, () -> m.put(t, bytes("a"), new byte[200]));
        assertEquals(Reason.LIMIT_EXCEEDED, size.reason());
        assertEquals("1", string(m.get(t, bytes("a"))), "the rejected put changed nothing");
        assertNull(m.get(t, bytes("c")));
        assertEquals(2, m.intentsHeld(P));
        m.put(t, bytes("a"), bytes("11"));
        m.commit(t);
        assertEquals("11", bed.read(P, "a"));
        assertNull(bed.read(P, "c"));
    }

    @Test
    void keyValueAndReadSetLimits() throws Exception {
        TransactionManager m = manager(TransactionLimits.DEFAULT.withReadSetKeysMax(3).withValueBytesMax(10));
        long t = m.begin(P, Isolation.SERIALIZABLE);
        assertEquals(Reason.LIMIT_EXCEEDED, assertThrows(TransactionException.class,
                () -> m.put(t, new byte[20_000], bytes("v"))).reason());
        assertEquals(Reason.LIMIT_EXCEEDED, assertThrows(TransactionException.class,
                () -> m.put(t, bytes("k"), new byte[11])).reason());
        m.get(t, bytes("a"));
        m.get(t, bytes("b"));
        m.get(t, bytes("c"));
        m.get(t, bytes("a"));
        assertEquals(Reason.LIMIT_EXCEEDED, assertThrows(TransactionException.class, () -> m.get(t, bytes("d"))).reason());
        assertEquals(Reason.LIMIT_EXCEEDED, assertThrows(TransactionException.class,
                () -> m.scan(t, null, null, 5)).reason());
        assertEquals(0, m.intentsHeld(P));
        m.commit(t);

        long s = m.begin(P, Isolation.SNAPSHOT);
        for (int i = 0; i < 10; i++) {
            m.get(s, bytes("k" + i));
        }
        m.commit(s);
    }

    @Test
    void openTransactionLimitsTotalAndPerClient() throws Exception {
        TransactionManager m = manager(TransactionLimits.DEFAULT.withOpenTransactions(3, 2));
        long a1 = m.begin(P, Isolation.SERIALIZABLE, "a");
        m.begin(P, Isolation.SERIALIZABLE, "a");
        TransactionException perClient = assertThrows(TransactionException.class,
                () -> m.begin(P, Isolation.SERIALIZABLE, "a"));
        assertEquals(Reason.LIMIT_EXCEEDED, perClient.reason());
        m.begin(P, Isolation.SERIALIZABLE, "b");
        assertEquals(Reason.LIMIT_EXCEEDED, assertThrows(TransactionException.class,
                () -> m.begin(P, Isolation.SERIALIZABLE, "c")).reason());
        assertEquals(3, m.openTransactions());
        m.abort(a1);
        m.begin(P, Isolation.SERIALIZABLE, "a");
    }

    @Test
    void unknownPartitionAndRemovedPartitionAreNotOwner() throws Exception {
        TransactionManager m = manager();
        assertEquals(Reason.NOT_OWNER, assertThrows(TransactionException.class,
                () -> m.begin(99, Isolation.SERIALIZABLE)).reason());
        long t = m.begin(P, Isolation.SERIALIZABLE);
        m.put(t, bytes("k"), bytes("v"));
        assertEquals(bed.stores.get(P), m.removePartition(P, 1_000));
        assertEquals(Reason.NOT_OWNER, assertThrows(TransactionException.class, () -> m.commit(t)).reason());
        assertEquals(Reason.NOT_OWNER, assertThrows(TransactionException.class,
                () -> m.begin(P, Isolation.SERIALIZABLE)).reason());
        assertEquals(0, m.openTransactions());
    }

    @Test
    void aFailedLogAbortsTheCommitAndReportsItsCtsUnused() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "k", "before");
        long t = m.begin(P, Isolation.SERIALIZABLE);
        m.put(t, bytes("k"), bytes("lost"));
        bed.dfs.failWrites(true);
        bed.walFailedOnPurpose = true;
        TransactionException e = assertThrows(TransactionException.class, () -> m.commit(t));
        assertEquals(Reason.LOG_FAILED, e.reason());
        assertTrue(e.transactionAborted());
        assertEquals(bed.timestamps.last(), bed.snapshots.snapshot(), "the CTS is not a gap forever");
        assertEquals(0, m.intentsHeld(P));
        assertEquals("before", bed.read(P, "k"));
        bed.dfs.failWrites(false);
    }

    @Test
    void scanValuesAreCopiesTheCallerMayChange() throws Exception {
        TransactionManager m = manager();
        bed.write(P, "k", "v");
        long t = m.begin(P, Isolation.SNAPSHOT);
        byte[] got = m.get(t, bytes("k"));
        got[0] = 'x';
        m.scan(t, null, null, 1).get(0).value()[0] = 'y';
        assertArrayEquals(bytes("v"), m.get(t, bytes("k")));
        m.commit(t);
    }
}
