package org.elastras.storage.wal;

/**
 * One record read back from the log with the position its frame starts at. Immutable.
 *
 * @param position where the record's frame starts
 * @param record the decoded record, mutations grouped by partition ({@link WalFormat#canonical})
 */
public record WalEntry(WalPosition position, WalRecord record) {

    public WalEntry {
        if (position == null || record == null) {
            throw new IllegalArgumentException("WAL entry needs a position and a record");
        }
    }
}
