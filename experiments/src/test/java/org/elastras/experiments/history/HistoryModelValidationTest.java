package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.append;
import static org.elastras.experiments.history.HistoryBuilder.read;
import static org.elastras.experiments.history.HistoryBuilder.write;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Malformed transactions and histories are refused with a message naming what is wrong. */
class HistoryModelValidationTest {

    private static Transaction ok(long id, int process, long invokeNanos, long completeNanos, MicroOp... ops) {
        return Transaction.of(id, process, Outcome.OK, invokeNanos, completeNanos, List.of(ops));
    }

    @Test
    void transactionsCheckTheirFields() {
        assertThrows(IllegalArgumentException.class, () -> ok(-1, 0, 0, 1, append("x", 1)));
        assertThrows(IllegalArgumentException.class, () -> ok(0, -1, 0, 1, append("x", 1)));
        assertThrows(IllegalArgumentException.class, () -> ok(0, 0, 5, 4, append("x", 1)));
        assertThrows(IllegalArgumentException.class, () -> ok(0, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> ok(0, 0, 0, 1, MicroOp.ReadList.unobserved("x")));
        assertThrows(IllegalArgumentException.class,
                () -> new Transaction(0, 0, List.of(append("x", 1)), Outcome.OK, 0, 1, -1L, null));
        assertThrows(NullPointerException.class, () -> new Transaction(0, 0, List.of(append("x", 1)), null, 0, 1, null, null));
    }

    @Test
    void opsCheckTheirFields() {
        assertThrows(IllegalArgumentException.class, () -> append("", 1));
        assertThrows(IllegalArgumentException.class, () -> append("k".repeat(MicroOp.KEY_LENGTH_MAX + 1), 1));
        assertThrows(NullPointerException.class, () -> append(null, 1));
        assertThrows(IllegalArgumentException.class, () -> new MicroOp.ReadRegister("r", 3L, false));
        List<Long> withNull = new java.util.ArrayList<>();
        withNull.add(null);
        assertThrows(NullPointerException.class, () -> new MicroOp.ReadList("x", withNull));
    }

    @Test
    void historiesRefuseDuplicateIds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new History(IsolationLevel.SNAPSHOT, List.of(ok(1, 0, 0, 1, append("x", 1)), ok(1, 1, 0, 1, append("x", 2))), false));
        assertTrue(e.getMessage().contains("id 1"), e.getMessage());
    }

    @Test
    void historiesRefuseAValueWrittenTwice() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new History(IsolationLevel.SNAPSHOT, List.of(ok(0, 0, 0, 1, append("x", 1)), ok(1, 1, 0, 1, append("x", 1))), false));
        assertTrue(e.getMessage().contains("unique"), e.getMessage());
    }

    @Test
    void historiesRefuseAKeyUsedAsListAndRegister() {
        assertThrows(IllegalArgumentException.class,
                () -> new History(IsolationLevel.SNAPSHOT, List.of(ok(0, 0, 0, 1, append("x", 1)), ok(1, 1, 0, 1, read("x", null))), false));
        assertThrows(IllegalArgumentException.class,
                () -> new History(IsolationLevel.SNAPSHOT, List.of(ok(0, 0, 0, 1, write("x", 1), append("x", 2))), false));
    }

    @Test
    void historiesRefuseAProcessRunningTwoTransactionsAtOnce() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new History(IsolationLevel.SNAPSHOT, List.of(ok(0, 4, 0, 10, append("x", 1)), ok(1, 4, 5, 12, append("x", 2))), false));
        assertTrue(e.getMessage().contains("process 4"), e.getMessage());
    }
}
