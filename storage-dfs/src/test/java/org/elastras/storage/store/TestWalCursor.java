package org.elastras.storage.store;

import org.elastras.storage.wal.WalPosition;

/** A WalCursor whose replay point the test sets. Thread-safe. */
final class TestWalCursor implements WalCursor {
    private final String walId;
    private volatile WalPosition replayPoint;

    TestWalCursor(String walId, WalPosition replayPoint) {
        this.walId = walId;
        this.replayPoint = replayPoint;
    }

    @Override
    public String walId() {
        return walId;
    }

    @Override
    public WalPosition replayPoint() {
        return replayPoint;
    }

    void setReplayPoint(WalPosition position) {
        replayPoint = position;
    }
}
