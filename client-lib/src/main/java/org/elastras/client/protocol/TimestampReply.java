package org.elastras.client.protocol;

/**
 * What the timestamp service answers an OTM's {@link TimestampReport}. Immutable; travels in JSON.
 *
 * @param newRange the range to switch to now, or null if none (see {@code withheldReason})
 * @param snapshotCts the current snapshot: transactions starting at the OTM read at it. An OTM keeps
 *     the largest snapshot it was ever told (a master that just took over answers lower ones until
 *     every OTM has reported to it)
 * @param withheldReason why there is no new range, null if there is one
 */
public record TimestampReply(CtsRange newRange, long snapshotCts, WithheldReason withheldReason) {

    public TimestampReply {
        if ((newRange == null) == (withheldReason == null)) {
            throw new IllegalArgumentException("a reply carries either a new range or the reason there is none, got "
                    + newRange + " and " + withheldReason);
        }
        if (snapshotCts < 0) {
            throw new IllegalArgumentException("snapshot must be >= 0, got " + snapshotCts);
        }
    }
}
