package org.elastras.otm.txn;

import static org.elastras.otm.txn.TxnTestbed.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.storage.store.MemtableBudget;
import org.junit.jupiter.api.Test;

/**
 * The OTM's memtable budget reaches the commit path: when the memtables of all its partitions hold
 * the whole budget and nothing flushes, a commit waits its bounded time and fails OVERLOADED,
 * having changed nothing; once a flush gives bytes back, commits go on.
 */
class AFullMemtableBudgetHoldsCommitsAndRefusesThemOverloadedTest {

    private static final int VALUE_BYTES = 4_000;

    @Test
    void commitsOverTheBudgetAreRefusedAndChangeNothingUntilAFlushMakesRoom() throws Exception {
        TransactionLimits limits = new TransactionLimits(16 * 1024, 1 << 20, 10_000, 16L << 20, 100_000, 10_001, 10_000,
                1_000, 30_000, 200);
        MemtableBudget budget = new MemtableBudget(64 * 1024);
        try (TxnTestbed bed = new TxnTestbed(limits, budget, 1, 2)) {
            TransactionManager m = bed.manager;
            int committed = 0;
            TransactionException refused = null;
            // Two partitions share the budget: write to both until a commit is refused.
            for (int i = 0; i < 100 && refused == null; i++) {
                long partition = 1 + i % 2;
                long t = m.begin(partition, Isolation.SERIALIZABLE, "writer");
                m.put(t, bytes("k" + i), new byte[VALUE_BYTES]);
                long start = System.nanoTime();
                try {
                    m.commit(t);
                    committed++;
                } catch (TransactionException e) {
                    refused = e;
                    assertTrue(System.nanoTime() - start >= 150_000_000L, "the commit waited its bounded time first");
                }
            }
            assertTrue(refused != null, "the budget never filled");
            assertEquals(Reason.OVERLOADED, refused.reason(), refused.getMessage());
            assertTrue(refused.getMessage().contains("memtables hold their whole budget"), refused.getMessage());
            assertTrue(committed >= 64 * 1024 / (VALUE_BYTES + 100) - 1, "commits went on while there was room: " + committed);
            // The refused commit changed nothing: its key is in neither partition.
            assertNull(bed.read(1, "k" + committed));
            assertNull(bed.read(2, "k" + committed));
            assertEquals(0, budget.frozenBytes());

            // A flush of one partition gives its bytes back: commits go on, and nothing was lost.
            bed.stores.get(1L).flush();
            long t = m.begin(2, Isolation.SERIALIZABLE, "writer");
            m.put(t, bytes("after"), new byte[VALUE_BYTES]);
            m.commit(t);
            for (int i = 0; i < committed; i++) {
                assertEquals(VALUE_BYTES, bed.read(1 + i % 2, "k" + i).length(), "commit " + i + " is readable");
            }
            assertEquals(VALUE_BYTES, bed.read(2, "after").length());
        }
    }
}
