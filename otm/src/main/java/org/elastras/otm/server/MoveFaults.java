package org.elastras.otm.server;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Fault injection into this OTM's side of live moves, for tests that stop an OTM at a chosen
 * step of a move: as the origin, the copy caught up and the pause not begun, the pause begun, or
 * the hand-over done and the master not answered yet; as the destination, recorded in the catalog
 * and not serving yet. A move that reaches a held step waits there until {@link #release} (at most
 * 60 s) and then goes on. Off unless a test holds a step. Thread-safe.
 */
public final class MoveFaults {

    /** Where a live move out can be held. */
    public enum Step {
        /** The destination caught up; the partition still serves here. */
        BEFORE_PAUSE,
        /** The pause began: new work is held, open transactions had their grace; nothing handed over yet. */
        IN_PAUSE,
        /** The destination holds a complete copy; the master has not been answered. */
        AFTER_HAND_OVER,
        /** At the destination: it recorded itself in the catalog (the master's hand-over write); not serving yet. */
        AFTER_RECORD
    }

    private final Map<Step, CountDownLatch> holds = new EnumMap<>(Step.class);
    private final Map<Step, Integer> waiting = new EnumMap<>(Step.class);

    /** From now on, moves out stop at {@code step} until {@link #release}. */
    public synchronized void holdAt(Step step) {
        holds.put(step, new CountDownLatch(1));
    }

    /** Lets every held move go on and holds nothing more. */
    public void release() {
        Map<Step, CountDownLatch> latches;
        synchronized (this) {
            latches = Map.copyOf(holds);
            holds.clear();
        }
        latches.values().forEach(CountDownLatch::countDown);
    }

    /** Waits until a move is held at {@code step}; false if none was within {@code timeoutMs}. */
    public boolean awaitHeld(Step step, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (this) {
            while (waiting.getOrDefault(step, 0) == 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }

    void at(Step step) {
        CountDownLatch latch;
        synchronized (this) {
            latch = holds.get(step);
            if (latch == null) {
                return;
            }
            waiting.merge(step, 1, Integer::sum);
            notifyAll();
        }
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (this) {
                waiting.merge(step, -1, Integer::sum);
            }
        }
    }
}
