package org.elastras.otm.txn;

import java.util.List;
import org.elastras.storage.store.Version;

/**
 * Told every commit applied to a partition while a live move copies it (see
 * {@link TransactionManager#mirror}). Called on the committing thread right after the apply, for
 * the commits of several threads at once, in no particular order (applying versions is
 * idempotent and order-free by key and CTS): it must be quick and must not block.
 */
@FunctionalInterface
public interface CommitMirror {

    /** The versions one commit wrote on the partition, all at {@code cts}, just applied to its store. */
    void applied(long cts, List<Version> versions);
}
