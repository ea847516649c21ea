package org.elastras.master.timestamp;

import java.io.IOException;

/**
 * Where the commit sequencer's high-water mark is persisted: every CTS any master issued is at or
 * below the stored mark. Each master uses its own instance: {@link #load()} once at start, then
 * {@link #advance} as the sequencer asks. Writes are conditional on the stored value being the one
 * this instance last read or wrote, so two masters that both believe they are active cannot both
 * advance it: the loser gets {@link HighWaterMarkConflictException} and must stop issuing.
 *
 * <p>Implementations: {@link ZkHighWaterMarkStore} (ZooKeeper) and {@link InMemoryHighWaterMarkStore}
 * (tests and simulations). Thread-safe.
 */
public interface HighWaterMarkStore {

    /**
     * Reads the stored mark (creating it as 0 if there is none) and remembers its version.
     *
     * @throws IOException if the store cannot be read, or the stored value is corrupt
     */
    long load() throws IOException;

    /**
     * Stores {@code markCts} if the stored mark is still the one this instance last read or wrote.
     *
     * @param markCts above the last mark read or written
     * @throws HighWaterMarkConflictException if another master changed the mark: stop issuing
     * @throws IOException if the store could not be written; the mark is unchanged (retry later)
     */
    void advance(long markCts) throws HighWaterMarkConflictException, IOException;
}
