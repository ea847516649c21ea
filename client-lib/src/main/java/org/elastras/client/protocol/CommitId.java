package org.elastras.client.protocol;

import java.security.SecureRandom;

/**
 * A client's unique id for one transaction or procedure call, given at begin: if the answer to its
 * commit is lost (the connection broke, the OTM died), the client asks the partition's owner
 * whether it committed ({@link ResolveCommitRequest}) instead of guessing. The OTM keeps the ids of
 * committed writing transactions with the partition's data for {@link #RETENTION_MS}. Immutable.
 *
 * @param issuedMs when the client made it (wall clock, milliseconds): the OTM forgets the id once
 *     it is older than the retention
 * @param nonce random, so that ids never collide
 */
public record CommitId(long issuedMs, long nonce) {

    /** How long an OTM can answer whether a commit id committed. */
    public static final long RETENTION_MS = 10 * 60_000;
    /** Largest procedure result kept with a commit id (bigger ones resolve without their result). */
    public static final int RESULT_BYTES_MAX = 4_096;

    private static final SecureRandom RANDOM = new SecureRandom();

    public CommitId {
        if (issuedMs <= 0) {
            throw Fields.malformed("commitId", "issuedMs must be a positive wall-clock time, got " + issuedMs);
        }
    }

    /** A new id, now. */
    public static CommitId next() {
        return new CommitId(System.currentTimeMillis(), RANDOM.nextLong());
    }
}
