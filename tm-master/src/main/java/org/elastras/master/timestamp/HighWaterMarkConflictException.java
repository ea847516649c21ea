package org.elastras.master.timestamp;

/**
 * The persisted high-water mark was changed by another master since this one last read or wrote
 * it: this master is stale and must not issue another CTS.
 */
public final class HighWaterMarkConflictException extends Exception {

    public HighWaterMarkConflictException(String message) {
        super(message);
    }
}
