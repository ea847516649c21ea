package org.elastras.master.timestamp;

import java.io.IOException;
import java.util.Objects;

/**
 * The in-memory twin of {@link ZkHighWaterMarkStore}, for tests and simulations: several stores
 * (one per simulated master) share one {@link Node}, with the same version check. Thread-safe.
 */
public final class InMemoryHighWaterMarkStore implements HighWaterMarkStore {

    /** The shared stored value: a mark and its version. Thread-safe. */
    public static final class Node {
        private long markCts;
        private int version;
        /** When set, the next write fails before it is applied (an unavailable store). */
        private boolean failNextWrite;

        /** The stored mark. */
        public synchronized long markCts() {
            return markCts;
        }

        /** Makes the next write fail with an IOException, without applying it. */
        public synchronized void failNextWrite() {
            failNextWrite = true;
        }
    }

    private final Node node;
    /** Guarded by this: the version last read or written, -1 before {@link #load()}. */
    private int version = -1;
    private long markCts;

    public InMemoryHighWaterMarkStore(Node node) {
        this.node = Objects.requireNonNull(node, "node");
    }

    @Override
    public synchronized long load() {
        synchronized (node) {
            version = node.version;
            markCts = node.markCts;
            return markCts;
        }
    }

    @Override
    public synchronized void advance(long newMarkCts) throws HighWaterMarkConflictException, IOException {
        if (version < 0) {
            throw new IllegalStateException("advance before load");
        }
        if (newMarkCts <= markCts) {
            throw new IllegalArgumentException("new high-water mark " + newMarkCts + " is not above " + markCts);
        }
        synchronized (node) {
            if (node.failNextWrite) {
                node.failNextWrite = false;
                throw new IOException("simulated: the store is unavailable");
            }
            if (node.version != version) {
                throw new HighWaterMarkConflictException("the high-water mark is at version " + node.version + ", not "
                        + version + ": another master is active");
            }
            node.markCts = newMarkCts;
            node.version++;
            version = node.version;
            markCts = newMarkCts;
        }
    }
}
