package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.append;
import static org.elastras.experiments.history.HistoryBuilder.readList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The checker reports at most its bound per class, counts what it found, and explains with the transactions' contents. */
class HistoryCheckerBoundsTest {

    @Test
    void directAnomaliesAreAllCountedButOnlyTheBoundReported() {
        HistoryBuilder builder = HistoryBuilder.serializable().fail(0, append("x", 1));
        for (int i = 0; i < 15; i++) {
            builder.ok(i + 1, readList("x", 1));
        }
        CheckResult result = new HistoryChecker(new HistoryChecker.Options(10, 64)).check(builder.build());
        assertEquals(15, result.counts().get(AnomalyClass.G1A));
        assertEquals(10, result.anomalies(AnomalyClass.G1A).size());
    }

    @Test
    void cycleSearchStopsAtTheBoundOneCyclePerComponent() {
        HistoryBuilder builder = HistoryBuilder.serializable();
        for (int i = 0; i < 15; i++) {
            String x = "x" + i;
            String y = "y" + i;
            builder.ok(3 * i, readList(x), readList(y), append(x, 1)).ok(3 * i + 1, readList(x), readList(y), append(y, 1))
                    .ok(3 * i + 2, readList(x, 1), readList(y, 1));
        }
        CheckResult result = new HistoryChecker(new HistoryChecker.Options(4, 64)).check(builder.build());
        assertEquals(4, result.counts().get(AnomalyClass.G2_ITEM));
        assertEquals(4, result.anomalies(AnomalyClass.G2_ITEM).size());
        assertEquals(java.util.List.of(0L, 1L), result.anomalies(AnomalyClass.G2_ITEM).get(0).transactionIds());
        assertEquals(java.util.List.of(3L, 4L), result.anomalies(AnomalyClass.G2_ITEM).get(1).transactionIds());
    }

    @Test
    void explanationsPrintTheCycleAndTheTransactionsInIt() {
        CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1), append("y", 1)).ok(1, readList("x"), readList("y", 1))
                .ok(2, readList("x", 1)).check();
        String explanation = result.anomalies(AnomalyClass.G_SINGLE).get(0).explanation();
        assertTrue(explanation.contains("T1 -rw(x)-> T0: T1 read a version of x that T0's write replaced"), explanation);
        assertTrue(explanation.contains("T0 -wr(y)-> T1: T1 read T0's write of y"), explanation);
        assertTrue(explanation.contains("T0 (process 0, OK): append(x, 1); append(y, 1)"), explanation);
        assertTrue(explanation.contains("T1 (process 1, OK): read(x) -> []; read(y) -> [1]"), explanation);
        assertTrue(result.render().startsWith("INVALID for SNAPSHOT: 3 transactions, 3 taken as committed"), result.render());
    }

    @Test
    void optionsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new HistoryChecker.Options(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new HistoryChecker.Options(1, 0));
    }

    @Test
    void anEmptyHistoryIsValid() {
        CheckResult result = new HistoryChecker().check(new History(IsolationLevel.SERIALIZABLE, java.util.List.of(), false));
        assertTrue(result.valid());
        assertEquals(0, result.transactions());
    }
}
