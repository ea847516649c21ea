package org.elastras.client;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ResolveCommitRequest;
import org.elastras.client.protocol.ResolveCommitResponse;

/**
 * Sends one request to the OTM serving a root key, and retries it while that is safe: the routing
 * loop under {@link ElasTrasClient}. Thread-safe (its parts are).
 *
 * <p>One attempt: look the partition up ({@link PartitionLocator}), take a connection to its owner
 * ({@link OtmConnections}), send. On failure, by {@link FailureKind}: a routing error drops the
 * cached location (and the connection, if the OTM was unreachable) and retries after a backoff; a
 * transient error backs off and retries; an unknown outcome is re-sent only if the request is safe
 * to repeat, else reported as {@link OutcomeUnknownException}; anything else is thrown as is. When
 * {@link RetryPolicy} allows no further attempt, {@link RetriesExhaustedException} says what was
 * tried.
 */
final class Router {

    /** One attempt of a request at a located partition. */
    @FunctionalInterface
    interface Attempt<T> {
        T run(PartitionLocation location, OtmClient otm);
    }

    /** Whether a request whose answer was lost may be sent again. */
    enum Resend {
        /** Running it twice is harmless (begin, an idempotent procedure). */
        SAFE,
        /** It may have committed: report {@link OutcomeUnknownException}. */
        NEVER
    }

    /** How many failed attempts a give-up message lists (the most recent). */
    private static final int TRIED_LISTED_MAX = 6;
    /**
     * Most hand-over hints ({@code movedTo}) one request follows without a backoff; past them it
     * reads the catalog after a backoff as for any NOT_OWNER (two OTMs pointing at each other
     * cannot make it loop).
     */
    static final int HINTS_FOLLOWED_MAX = 2;
    /**
     * Longest pause after a NOT_OWNER or NOT_SERVING: the partition is changing hands, and a move
     * serves it again within a few hundred ms. With the doubling backoff alone, a request that met
     * a 250 ms move waited up to twice that (the elasticity experiment's p99 in seconds with a move:
     * 430-590 ms, BENCHMARKS.md). What it costs is catalog reads, single-flight per client (one per
     * pause at most). An UNREACHABLE OTM (a failover: seconds) keeps the full backoff.
     */
    static final long MOVING_BACKOFF_MAX_MS = 50;

    private final PartitionLocator locator;
    private final OtmConnections connections;
    private final RetryPolicy policy;
    private final ClientClock clock;
    private final RandomGenerator random;

    Router(PartitionLocator locator, OtmConnections connections, RetryPolicy policy, ClientClock clock,
            RandomGenerator random) {
        this.locator = locator;
        this.connections = connections;
        this.policy = policy;
        this.clock = clock;
        this.random = random;
    }

    PartitionLocator locator() {
        return locator;
    }

    OtmConnections connections() {
        return connections;
    }

    RetryPolicy policy() {
        return policy;
    }

    ClientClock clock() {
        return clock;
    }

    /**
     * Encodes {@code rootKey} with the database's schema (read from the catalog, with retries if
     * it cannot be read now).
     *
     * @throws ElasTrasException UNKNOWN_DATABASE, TYPE_MISMATCH
     */
    byte[] encodeRootKey(String database, List<?> rootKey, long startedNanos) {
        String what = "look up database " + database;
        Failures failures = new Failures(what, startedNanos);
        while (true) {
            try {
                DatabaseSchema schema = locator.schema(database);
                return RootKeys.encode(schema, rootKey);
            } catch (ElasTrasException e) {
                if (FailureKind.of(e.code()) == FailureKind.PERMANENT) {
                    throw e;
                }
                failures.add("catalog", e);
                pause(failures);
            }
        }
    }

    /**
     * Runs {@code attempt} at the owner of {@code rootKey}, retrying as the class comment says.
     *
     * @param what the request, for messages ("call NEW_ORDER on TPCC root key [3]")
     * @param startedNanos when the request (or the transaction it belongs to) started: the deadline counts from it
     */
    <T> T run(String what, String database, byte[] rootKey, Resend resend, long startedNanos, Attempt<T> attempt) {
        Failures failures = new Failures(what, startedNanos);
        PartitionLocation hinted = null;
        int hintsFollowed = 0;
        while (true) {
            PartitionLocation location = null;
            OtmConnections.Lease lease = null;
            try {
                location = hinted != null ? hinted : locator.locate(database, rootKey);
                hinted = null;
                lease = connections.acquire(location);
                return attempt.run(location, lease.client());
            } catch (ElasTrasException e) {
                String where = location == null ? "catalog" : location.otmId() + " (" + location.host() + ":"
                        + location.port() + ") partition " + location.partitionId();
                switch (FailureKind.of(e.code())) {
                    case PERMANENT -> throw e;
                    case OUTCOME_UNKNOWN -> {
                        dropRoute(location, lease);
                        if (resend == Resend.NEVER) {
                            throw new OutcomeUnknownException(what + " was sent to " + where + " and its answer was lost ("
                                    + e.getMessage() + "); it may or may not have committed, so it was not re-sent."
                                    + " Check whether it took effect, or make it idempotent and use callIdempotent", e);
                        }
                    }
                    case REROUTE -> {
                        if (location != null) {
                            if (e.movedTo() != null && hintsFollowed < HINTS_FOLLOWED_MAX) {
                                // Handed over in a live move: go to the next owner now (it holds the
                                // request until it serves), not to the catalog after a backoff; so do
                                // this client's other requests for the partition, which would each
                                // have read the catalog, one at a time.
                                hintsFollowed++;
                                hinted = location.handedOverTo(e.movedTo());
                                locator.handedOver(location, hinted);
                            } else {
                                locator.invalidate(location);
                            }
                        }
                        if (e.code() == ErrorCode.UNREACHABLE && lease != null) {
                            connections.retire(lease);
                        }
                    }
                    case BACK_OFF -> {
                        // Same place, after a pause.
                    }
                    default -> throw new IllegalStateException("unhandled failure kind of " + e.code());
                }
                failures.add(where, e);
            } finally {
                if (lease != null) {
                    connections.release(lease);
                }
            }
            if (hinted == null) {
                pause(failures);
            }
        }
    }

    /** What the owner of a partition says about a commit id. */
    record Resolution(boolean committed, long cts, Object result, boolean resultKept) {
    }

    /**
     * Asks the partition's current owner whether the transaction or call with {@code commitId}
     * committed, following moves and failovers until the deadline (a resolution changes nothing
     * but the fate of that id, so it is always safe to resend).
     *
     * @throws OutcomeUnknownException if no owner answered before the deadline
     */
    Resolution resolve(String what, String database, byte[] rootKey, CommitId commitId, long startedNanos) {
        try {
            return run("resolving " + what, database, rootKey, Resend.SAFE, startedNanos, (location, otm) -> {
                ResolveCommitResponse r = otm.resolveCommit(new ResolveCommitRequest(location.database(),
                        location.partitionId(), commitId));
                return new Resolution(r.committed(), r.cts(), r.result(), r.resultKept());
            });
        } catch (ElasTrasException e) {
            throw new OutcomeUnknownException(what + ": its answer was lost and whether it committed could not be"
                    + " learnt (" + e.getMessage() + "); it may or may not have committed", e);
        }
    }

    /** Forgets a location and the connection a request on it lost its answer on. */
    void dropRoute(PartitionLocation location, OtmConnections.Lease lease) {
        if (location != null) {
            locator.invalidate(location);
        }
        if (lease != null) {
            connections.retire(lease);
        }
    }

    /** Waits before the next attempt, or throws {@link RetriesExhaustedException} if none is allowed. */
    void pause(Failures failures) {
        long delayMs = policy.nextDelayMs(failures.startedNanos, failures.count, clock.nanoTime(), random);
        if (delayMs < 0) {
            throw failures.exhausted(clock.nanoTime(), policy);
        }
        if (failures.last != null && (failures.last.code() == ErrorCode.NOT_OWNER
                || failures.last.code() == ErrorCode.NOT_SERVING)) {
            delayMs = Math.min(delayMs, MOVING_BACKOFF_MAX_MS);
        }
        try {
            clock.sleepMs(delayMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ElasTrasException(ErrorCode.UNREACHABLE, failures.what + " was interrupted while waiting to retry;"
                    + " nothing was executed by the attempt that failed (" + failures.last + ")", e);
        }
    }

    /** The failed attempts of one request: how many, the last few, and the last error. Single-threaded. */
    static final class Failures {
        private final String what;
        private final long startedNanos;
        private final Deque<String> recent = new ArrayDeque<>();
        private int count;
        private ElasTrasException last;

        Failures(String what, long startedNanos) {
            this.what = what;
            this.startedNanos = startedNanos;
        }

        void add(String where, ElasTrasException e) {
            count++;
            last = e;
            recent.addLast(where + " -> " + e.code());
            if (recent.size() > TRIED_LISTED_MAX) {
                recent.removeFirst();
            }
        }

        int count() {
            return count;
        }

        RetriesExhaustedException exhausted(long nowNanos, RetryPolicy policy) {
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(nowNanos - startedNanos);
            return new RetriesExhaustedException(last, count, what + ": gave up after " + count + " failed attempt(s) in "
                    + elapsedMs + " ms (retry deadline " + policy.deadlineMs() + " ms, at most " + policy.attemptsMax()
                    + " attempts); " + (count > recent.size() ? "the last " + recent.size() + " tried: " : "tried: ")
                    + recent + "; last error: " + last);
        }
    }
}
