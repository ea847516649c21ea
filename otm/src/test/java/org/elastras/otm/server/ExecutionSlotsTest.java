package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The OTM's bound on call batches executing at once. */
class ExecutionSlotsTest {

    @Test
    void aBatchBeyondTheSlotsWaitsItsBoundThenRunsWithoutOneAndIsCounted() throws Exception {
        ExecutionSlots slots = new ExecutionSlots(2, 50);
        assertTrue(slots.enter());
        assertTrue(slots.enter());
        assertEquals(0, slots.free());
        long start = System.nanoTime();
        assertFalse(slots.enter(), "no slot is free: the wait runs out");
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "it waited its bound first");
        assertEquals(1, slots.waitedOut());
        assertEquals(2, slots.entered());
        slots.leave();
        assertTrue(slots.enter(), "a slot given back is taken at once");
        slots.leave();
        slots.leave();
        assertEquals(2, slots.free());
    }

    @Test
    void aSlotGivenBackGoesToTheBatchThatWaitedLongest() throws Exception {
        ExecutionSlots slots = new ExecutionSlots(1, 60_000);
        assertTrue(slots.enter());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Integer> order = new ArrayList<>();
            List<Future<?>> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                final int id = i;
                CountDownLatch queued = new CountDownLatch(1);
                waiting.add(pool.submit(() -> {
                    queued.countDown();
                    assertTrue(slots.enter());
                    synchronized (order) {
                        order.add(id);
                    }
                    slots.leave();
                    return null;
                }));
                queued.await();
                // The semaphore queues the thread once it blocks; give it that moment.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (slots.queued() < i + 1) {
                    assertTrue(System.nanoTime() < deadline, "waiter " + id + " never queued");
                    Thread.sleep(1);
                }
            }
            slots.leave();
            for (Future<?> f : waiting) {
                f.get(10, TimeUnit.SECONDS);
            }
            assertEquals(List.of(0, 1, 2), order, "first come, first served");
            assertEquals(0, slots.waitedOut());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void neverMoreExecuteAtOnceThanThereAreSlots() throws Exception {
        ExecutionSlots slots = new ExecutionSlots(3, 60_000);
        AtomicInteger executing = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < 12; t++) {
                all.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        assertTrue(slots.enter());
                        try {
                            most.accumulateAndGet(executing.incrementAndGet(), Math::max);
                            Thread.onSpinWait();
                            executing.decrementAndGet();
                        } finally {
                            slots.leave();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(most.get() <= 3, "at most 3 at once, saw " + most.get());
        assertEquals(12 * 200, slots.entered());
        assertEquals(3, slots.free());
    }

    @Test
    void badBoundsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ExecutionSlots(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new ExecutionSlots(1, 0));
    }
}
