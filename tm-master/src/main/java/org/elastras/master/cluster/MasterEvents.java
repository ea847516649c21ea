package org.elastras.master.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The master's recent events for operators (elections, OTMs joining and lost, fences, partitions
 * assigned, opened, unassigned and parked, databases created): a bounded ring that keeps the
 * newest {@code capacity} events and numbers them, so a reader can ask for what came after the
 * last one it saw. Thread-safe: the master's loop and IO threads record, the dashboard reads.
 *
 * <p>It is an observation log, not state: nothing in the master reads it back.
 */
public final class MasterEvents {

    /** The most events a ring may hold. */
    public static final int CAPACITY_MAX = 100_000;
    /** How many characters of a message are kept. */
    public static final int MESSAGE_LENGTH_MAX = 500;

    /** What happened. */
    public enum Kind {
        ELECTED, ACTIVE, STEPPED_DOWN,
        OTM_JOINED, OTM_SILENT, OTM_LOST, OTM_IGNORED, FENCE_STARTED, OTM_FENCED, FENCE_FAILED, OTM_RECOVERED, LOGS_DELETED,
        PARTITION_ASSIGNED, PARTITION_OPENED, PARTITION_OPEN_FAILED, PARTITION_UNASSIGNED, PARTITION_PARKED,
        DATABASE_CREATED, MOVE_STARTED, MOVE_FINISHED, MOVE_ABANDONED, OTM_DRAINING, OTM_DRAINED, BALANCER_ADVICE, OTM_REQUESTED, OTM_REMOVED
    }

    /**
     * One event. Immutable.
     *
     * @param sequence 1 for the first event of this master process, then consecutive
     * @param atMs wall-clock time in milliseconds since the epoch (for display only)
     * @param kind what happened
     * @param subject the OTM, partition, database or master it is about
     * @param message what happened, for a human
     */
    public record Event(long sequence, long atMs, Kind kind, String subject, String message) {
    }

    private final int capacity;
    private final LongSupplier wallClockMs;
    /** Guarded by this. */
    private final ArrayDeque<Event> ring;
    /** Guarded by this: the sequence of the last event recorded, 0 before the first. */
    private long lastSequence;

    /**
     * @param capacity how many of the newest events are kept, in [1, {@value #CAPACITY_MAX}]
     * @param wallClockMs the time stamped on events (display only)
     */
    public MasterEvents(int capacity, LongSupplier wallClockMs) {
        if (capacity < 1 || capacity > CAPACITY_MAX) {
            throw new IllegalArgumentException("capacity must be in [1, " + CAPACITY_MAX + "], got " + capacity);
        }
        this.capacity = capacity;
        this.wallClockMs = Objects.requireNonNull(wallClockMs, "wallClockMs");
        this.ring = new ArrayDeque<>(Math.min(capacity, 1_024));
    }

    /** Records an event; the oldest is dropped once the ring is full. */
    public synchronized void record(Kind kind, String subject, String message) {
        Objects.requireNonNull(kind, "kind");
        String text = message == null ? "" : message;
        if (text.length() > MESSAGE_LENGTH_MAX) {
            text = text.substring(0, MESSAGE_LENGTH_MAX) + "...";
        }
        if (ring.size() == capacity) {
            ring.removeFirst();
        }
        ring.addLast(new Event(++lastSequence, wallClockMs.getAsLong(), kind, subject == null ? "" : subject, text));
    }

    /**
     * The events after {@code afterSequence}, oldest first, at most {@code max} of them (the newest
     * ones when more are kept).
     */
    public synchronized List<Event> after(long afterSequence, int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must be >= 0, got " + max);
        }
        List<Event> out = new ArrayList<>();
        for (Event e : ring) {
            if (e.sequence() > afterSequence) {
                out.add(e);
            }
        }
        return out.size() <= max ? out : new ArrayList<>(out.subList(out.size() - max, out.size()));
    }

    /** The sequence of the newest event, 0 if none was recorded. */
    public synchronized long lastSequence() {
        return lastSequence;
    }

    public int capacity() {
        return capacity;
    }
}
