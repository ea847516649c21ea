package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.append;
import static org.elastras.experiments.history.HistoryBuilder.readList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HistoryRecorderTest {

    private final AtomicLong clock = new AtomicLong();

    private HistoryRecorder recorder(int transactionsMax) {
        return new HistoryRecorder(IsolationLevel.SERIALIZABLE, transactionsMax, () -> clock.addAndGet(10));
    }

    @Test
    void recordsInvocationAndCompletionWithTimesAndTimestamps() {
        HistoryRecorder recorder = recorder(10);
        long id = recorder.invoke(3, List.of(MicroOp.ReadList.unobserved("x"), append("x", 1)));
        recorder.complete(id, Outcome.OK, List.of(readList("x"), append("x", 1)), 4L, 5L);
        History history = recorder.history();
        assertEquals(1, history.size());
        Transaction transaction = history.transactions().get(0);
        assertEquals(new Transaction(0, 3, List.of(readList("x"), append("x", 1)), Outcome.OK, 10, 20, 4L, 5L), transaction);
        assertFalse(history.truncated());
        assertEquals(IsolationLevel.SERIALIZABLE, history.isolation());
    }

    @Test
    void transactionsInFlightAppearAsUnknownWithTheirInvokedOps() {
        HistoryRecorder recorder = recorder(10);
        recorder.invoke(1, List.of(append("x", 1)));
        Transaction transaction = recorder.history().transactions().get(0);
        assertEquals(Outcome.UNKNOWN, transaction.outcome());
        assertEquals(List.of(append("x", 1)), transaction.ops());
        assertNull(transaction.commitTimestamp());
    }

    @Test
    void completingWithoutOpsKeepsTheInvokedOps() {
        HistoryRecorder recorder = recorder(10);
        long id = recorder.invoke(1, List.of(append("x", 1)));
        recorder.complete(id, Outcome.FAIL, null);
        assertEquals(List.of(append("x", 1)), recorder.history().transactions().get(0).ops());
    }

    @Test
    void stopsAtItsBoundAndSaysSo() {
        HistoryRecorder recorder = recorder(2);
        long first = recorder.invoke(1, List.of(append("x", 1)));
        recorder.complete(first, Outcome.OK, null);
        long second = recorder.invoke(1, List.of(append("x", 2)));
        recorder.complete(second, Outcome.OK, null);
        long third = recorder.invoke(1, List.of(append("x", 3)));
        assertEquals(HistoryRecorder.NOT_RECORDED, third);
        recorder.complete(third, Outcome.OK, null); // a no-op, so workloads need not check
        assertTrue(recorder.truncated());
        assertEquals(1, recorder.invocationsDropped());
        History history = recorder.history();
        assertEquals(2, history.size());
        assertTrue(history.truncated());
    }

    @Test
    void refusesMisuse() {
        assertThrows(IllegalArgumentException.class, () -> recorder(0));
        assertThrows(IllegalArgumentException.class, () -> recorder(HistoryRecorder.TRANSACTIONS_MAX_LIMIT + 1));
        HistoryRecorder recorder = recorder(10);
        long id = recorder.invoke(1, List.of(append("x", 1)));
        assertThrows(IllegalStateException.class, () -> recorder.invoke(1, List.of(append("x", 2))), "one transaction per process at a time");
        assertThrows(IllegalArgumentException.class, () -> recorder.invoke(2, List.of()), "a transaction needs ops");
        recorder.complete(id, Outcome.OK, null);
        assertThrows(IllegalStateException.class, () -> recorder.complete(id, Outcome.OK, null), "completed twice");
        assertThrows(IllegalStateException.class, () -> recorder.complete(7, Outcome.OK, null), "never invoked");
        long unobserved = recorder.invoke(2, List.of(MicroOp.ReadList.unobserved("x")));
        assertThrows(IllegalArgumentException.class, () -> recorder.complete(unobserved, Outcome.OK, null), "OK needs observed reads");
    }

    @Test
    void manyThreadsRecordUpToTheBound() throws InterruptedException {
        int threads = 8;
        int perThread = 1_000;
        int bound = 5_000;
        HistoryRecorder recorder = recorder(bound);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int p = 0; p < threads; p++) {
            int process = p;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        long value = (long) process * perThread + i;
                        long id = recorder.invoke(process, List.of(append("k" + process, value)));
                        recorder.complete(id, Outcome.OK, null);
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(List.of(), errors);
        History history = recorder.history();
        assertEquals(bound, history.size());
        assertTrue(history.truncated());
        assertEquals(threads * perThread - bound, recorder.invocationsDropped());
        for (int i = 0; i < bound; i++) {
            assertEquals(i, history.transactions().get(i).id());
            assertEquals(Outcome.OK, history.transactions().get(i).outcome());
        }
        assertTrue(new HistoryChecker().check(history).valid());
    }
}
