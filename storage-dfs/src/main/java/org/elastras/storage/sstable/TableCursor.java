package org.elastras.storage.sstable;

import java.io.IOException;
import org.elastras.storage.store.Version;

/**
 * A position in a whole SSTable: the index picks the block, a {@link BlockCursor} walks inside
 * it, and moving past a block's last entry loads the next block. Not thread-safe: one cursor per
 * reading thread; the reader and the blocks it hands out are shared.
 */
final class TableCursor {

    private final SsTableReader reader;
    private int blockIndex;
    private BlockCursor blockCursor;

    TableCursor(SsTableReader reader) {
        this.reader = reader;
        this.blockIndex = reader.dataBlockCount();
    }

    boolean valid() {
        return blockCursor != null && blockCursor.valid();
    }

    void seekToFirst() throws IOException {
        enterBlock(0);
        if (blockCursor != null) {
            blockCursor.seekToFirst();
            skipExhaustedBlocks();
        }
    }

    /** Moves to the first version {@code >= (key, cts)} in Version.ORDER, possibly in a later block. */
    void seek(byte[] key, long cts) throws IOException {
        enterBlock(reader.firstBlockEndingAtOrAfter(key, cts));
        if (blockCursor != null) {
            blockCursor.seek(key, cts);
            skipExhaustedBlocks();
        }
    }

    void next() throws IOException {
        if (!valid()) {
            throw new IllegalStateException("next() on a table cursor that is not on a version");
        }
        blockCursor.next();
        skipExhaustedBlocks();
    }

    boolean keyEquals(byte[] key) {
        return blockCursor.keyEquals(key);
    }

    Version version() {
        return blockCursor.version();
    }

    /** Past the end of a block, the next version is the first of the next block. */
    private void skipExhaustedBlocks() throws IOException {
        while (blockCursor != null && !blockCursor.valid()) {
            enterBlock(blockIndex + 1);
            if (blockCursor != null) {
                blockCursor.seekToFirst();
            }
        }
    }

    private void enterBlock(int index) throws IOException {
        blockIndex = index;
        blockCursor = index < reader.dataBlockCount() ? new BlockCursor(reader.block(index)) : null;
    }
}
