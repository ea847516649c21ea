package org.elastras.storage.store;

import java.util.TreeMap;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalWriter;

/**
 * The owner's {@link WalCursor}: tracks commits that are being logged or are logged but not yet
 * applied to their partition stores, so that a flush never records a replay point past one of
 * them. The commit pipeline calls {@link #begin()} before it appends a commit to the log and
 * {@link Ticket#close()} after it applied the commit (or after the append failed).
 *
 * <p>Thread-safe: every method holds the instance lock (one short critical section per commit).
 */
public final class UnappliedCommits implements WalCursor {

    /** A commit between {@link #begin()} and its apply. */
    public final class Ticket implements AutoCloseable {
        private final WalPosition notBefore;
        private boolean closed;

        private Ticket(WalPosition notBefore) {
            this.notBefore = notBefore;
        }

        /** Ends tracking: the commit is applied, or was never logged. Idempotent. */
        @Override
        public void close() {
            synchronized (UnappliedCommits.this) {
                if (closed) {
                    return;
                }
                closed = true;
                int count = open.get(notBefore);
                if (count == 1) {
                    open.remove(notBefore);
                } else {
                    open.put(notBefore, count - 1);
                }
            }
        }
    }

    private final String walId;
    private final WalWriter writer;
    /** Guarded by {@code this}: log end position at begin() -> number of open tickets with it. */
    private final TreeMap<WalPosition, Integer> open = new TreeMap<>();

    public UnappliedCommits(String walId, WalWriter writer) {
        if (walId == null || walId.isEmpty() || writer == null) {
            throw new IllegalArgumentException("WAL id and writer are required");
        }
        this.walId = walId;
        this.writer = writer;
    }

    /** Starts tracking a commit about to be appended; its record will be at or after the returned ticket's position. */
    public synchronized Ticket begin() {
        WalPosition end = writer.endPosition();
        open.merge(end, 1, Integer::sum);
        return new Ticket(end);
    }

    @Override
    public String walId() {
        return walId;
    }

    @Override
    public synchronized WalPosition replayPoint() {
        WalPosition end = writer.endPosition();
        return open.isEmpty() ? end : WalPosition.min(open.firstKey(), end);
    }

    /** Commits currently between begin and apply. */
    public synchronized int inFlight() {
        int n = 0;
        for (int c : open.values()) {
            n += c;
        }
        return n;
    }
}
