package org.elastras.storage.store;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable picture of a partition store's sources at one moment: the active memtable, the
 * frozen memtables waiting for flush (newest first) and the SSTables (oldest first). Readers
 * retain a view for the length of a get or scan, so flush and compaction can install a new view
 * without disturbing them.
 *
 * <p>Thread-safe; reference counted (the store holds one reference to its current view).
 */
final class StoreView {

    final MemTable active;
    final List<MemTable> frozen;
    final List<TableHandle> tables;
    /** Active first, then frozen newest first; built once, read on every lookup. */
    private final List<MemTable> memtables;
    private final AtomicInteger refs = new AtomicInteger(1);

    StoreView(MemTable active, List<MemTable> frozen, List<TableHandle> tables) {
        this.active = active;
        this.frozen = List.copyOf(frozen);
        this.tables = List.copyOf(tables);
        MemTable[] all = new MemTable[this.frozen.size() + 1];
        all[0] = active;
        for (int i = 0; i < this.frozen.size(); i++) {
            all[i + 1] = this.frozen.get(i);
        }
        this.memtables = List.of(all);
        for (TableHandle t : this.tables) {
            t.retain();
        }
    }

    /** Takes a reference unless the view is already released; returns false then. */
    boolean tryRetain() {
        while (true) {
            int n = refs.get();
            if (n <= 0) {
                return false;
            }
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void release() {
        int after = refs.decrementAndGet();
        if (after < 0) {
            throw new IllegalStateException("store view released more often than retained");
        }
        if (after == 0) {
            for (TableHandle t : tables) {
                t.release();
            }
        }
    }

    /** Active first, then frozen newest first. */
    List<MemTable> memtables() {
        return memtables;
    }
}
