package org.elastras.otm.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.elastras.client.protocol.ShippedCommit;
import org.elastras.otm.txn.CommitMirror;
import org.elastras.storage.store.Version;

/**
 * The commits a live move still has to ship to the destination: filled by the committing threads
 * (as the partition's {@link CommitMirror}), emptied in batches by the thread that runs the move.
 * Bounded in bytes: past {@link #bytesMax} it takes nothing more and the move fails (the origin
 * keeps serving), so a destination that cannot keep up costs memory only up to the bound.
 *
 * <p>Thread-safe.
 */
final class LiveMoveOutbox implements CommitMirror {

    /** Bytes a commit costs here besides its keys and values. */
    private static final int COMMIT_OVERHEAD_BYTES = 32;

    private final long bytesMax;
    /** Guarded by this. */
    private final ArrayDeque<ShippedCommit> queue = new ArrayDeque<>();
    /** Guarded by this: the bytes in {@link #queue}. */
    private long bytes;
    /** Guarded by this. */
    private boolean overflowed;
    private long commits;
    private long versions;

    LiveMoveOutbox(long bytesMax) {
        this.bytesMax = bytesMax;
    }

    @Override
    public void applied(long cts, List<Version> applied) {
        List<byte[]> keys = new ArrayList<>(applied.size());
        List<byte[]> values = new ArrayList<>(applied.size());
        for (Version v : applied) {
            keys.add(v.key());
            values.add(v.isTombstone() ? null : v.value());
        }
        if (keys.isEmpty()) {
            return;
        }
        ShippedCommit commit = new ShippedCommit(cts, keys, values);
        long size = size(commit);
        synchronized (this) {
            if (overflowed) {
                return;
            }
            if (bytes + size > bytesMax) {
                overflowed = true;
                queue.clear();
                bytes = 0;
                notifyAll();
                return;
            }
            queue.add(commit);
            bytes += size;
            commits++;
            versions += keys.size();
            notifyAll();
        }
    }

    /**
     * Takes the oldest commits, at least one if any waits (waiting up to {@code waitMs} for one),
     * up to about {@code batchBytes} and {@code commitsMax}.
     */
    synchronized List<ShippedCommit> take(long batchBytes, int commitsMax, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (queue.isEmpty() && !overflowed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return List.of();
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        List<ShippedCommit> batch = new ArrayList<>();
        long taken = 0;
        while (!queue.isEmpty() && batch.size() < commitsMax && (batch.isEmpty() || taken < batchBytes)) {
            ShippedCommit c = queue.poll();
            long size = size(c);
            taken += size;
            bytes -= size;
            batch.add(c);
        }
        return batch;
    }

    private static long size(ShippedCommit c) {
        long size = COMMIT_OVERHEAD_BYTES;
        for (int i = 0; i < c.keys().size(); i++) {
            byte[] v = c.values().get(i);
            size += c.keys().get(i).length + (v == null ? 0 : v.length) + Long.BYTES;
        }
        return size;
    }

    /** Bytes waiting to be shipped. */
    synchronized long backlogBytes() {
        return bytes;
    }

    /** Whether more than {@link #bytesMax} waited at once: the move must fail. */
    synchronized boolean overflowed() {
        return overflowed;
    }

    synchronized long commits() {
        return commits;
    }

    synchronized long versions() {
        return versions;
    }
}
