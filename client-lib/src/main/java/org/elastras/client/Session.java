package org.elastras.client;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.Isolation;

/**
 * A sequence of requests with session consistency: each one reads at least everything the
 * session's earlier commits wrote, on any partition and any OTM. The session remembers the commit
 * timestamp (CTS) of its latest commit and sends it as {@code afterCts} with the next
 * {@code begin} or {@code call}; the OTM starts the transaction only once its snapshot has reached
 * it.
 *
 * <p>Thread-safe: threads may share a session (the remembered CTS only grows), and then each reads
 * what every other wrote before it. {@link ElasTrasClient}'s own methods use one session shared by
 * every thread of the client; make a session per logical user or request stream with
 * {@link ElasTrasClient#newSession()} when threads need not wait for each other's commits.
 */
public final class Session {

    private final Router router;
    private final AtomicLong lastCommitCts = new AtomicLong();

    Session(Router router) {
        this.router = router;
    }

    /** The CTS of the latest commit seen by this session (0 if none). */
    public long lastCommitCts() {
        return lastCommitCts.get();
    }

    void committed(long cts) {
        lastCommitCts.accumulateAndGet(cts, Math::max);
    }

    /** See {@link ElasTrasClient#call}. */
    public Object call(String database, String procedure, List<?> rootKey, List<?> args) {
        return run(database, procedure, rootKey, args, Isolation.SERIALIZABLE);
    }

    /** See {@link ElasTrasClient#call(String, String, List, List, Isolation)}. */
    public Object call(String database, String procedure, List<?> rootKey, List<?> args, Isolation isolation) {
        return run(database, procedure, rootKey, args, Objects.requireNonNull(isolation, "isolation"));
    }

    /** See {@link ElasTrasClient#callIdempotent}. */
    public Object callIdempotent(String database, String procedure, List<?> rootKey, List<?> args) {
        return run(database, procedure, rootKey, args, Isolation.SERIALIZABLE);
    }

    /**
     * Runs a call: a lost answer is resolved at the partition's owner (its commit id tells whether it
     * committed, and a kept result comes back); one that did not commit is run again.
     */
    private Object run(String database, String procedure, List<?> rootKey, List<?> args, Isolation isolation) {
        long started = router.clock().nanoTime();
        byte[] key = router.encodeRootKey(database, rootKey, started);
        // Null arguments are allowed (the protocol carries them): no List.copyOf here.
        List<Object> arguments = args == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(args));
        String what = "call " + procedure + " on " + database + " root key " + rootKey;
        Router.Failures failures = new Router.Failures(what, started);
        while (true) {
            // Each attempt has its own commit id: after a lost answer, its owner says whether it committed.
            CommitId[] sent = new CommitId[1];
            try {
                var response = router.run(what, database, key, Router.Resend.NEVER, started, (location, otm) -> {
                    sent[0] = CommitId.next();
                    return otm.call(new CallRequest(location.database(), location.partitionId(), procedure, arguments,
                            isolation, lastCommitCts.get(), sent[0]));
                });
                committed(response.cts());
                return response.result();
            } catch (OutcomeUnknownException lost) {
                Router.Resolution r = router.resolve(what, database, key, sent[0], started);
                if (r.committed()) {
                    committed(r.cts());
                    if (r.resultKept()) {
                        return r.result();
                    }
                    throw new OutcomeUnknownException(what + " committed at CTS " + r.cts() + " but its answer was lost"
                            + " and its result was too large to keep (over " + CommitId.RESULT_BYTES_MAX + " bytes)", lost);
                }
                // It did not commit and never will: run it again.
                failures.add("lost answer, resolved as not committed", lost);
            }
            router.pause(failures);
        }
    }

    /** See {@link ElasTrasClient#transaction}. */
    public ClientTransaction transaction(String database, List<?> rootKey) {
        return begin(database, rootKey, router.clock().nanoTime());
    }

    private ClientTransaction begin(String database, List<?> rootKey, long started) {
        byte[] key = router.encodeRootKey(database, rootKey, started);
        String what = "begin on " + database + " root key " + rootKey;
        // A begin whose answer was lost leaves at most an idle transaction, which the OTM expires: safe to resend.
        var schema = router.locator().schema(database);
        return router.run(what, database, key, Router.Resend.SAFE, started, (location, otm) -> {
            CommitId commitId = CommitId.next();
            BeginResponse r = otm.begin(new BeginRequest(location.database(), location.partitionId(),
                    Isolation.SERIALIZABLE, lastCommitCts.get(), commitId));
            return new ClientTransaction(router, this, location, key, schema, r.txnId(), r.snapshotCts(), commitId);
        });
    }

    /** See {@link ElasTrasClient#runInTransaction}. */
    public <T> T runInTransaction(String database, List<?> rootKey, TransactionBody<T> body) {
        long started = router.clock().nanoTime();
        Router.Failures failures = new Router.Failures("transaction on " + database + " root key " + rootKey, started);
        while (true) {
            try (ClientTransaction txn = begin(database, rootKey, started)) {
                T result = body.run(txn);
                if (txn.isOpen()) {
                    txn.commit();
                }
                return result;
            } catch (TransactionAbortedException e) {
                if (!e.retryable()) {
                    throw e;
                }
                failures.add("attempt " + (failures.count() + 1), e);
            } catch (ElasTrasException e) {
                // A retryable error the body let through from a request that did not end the transaction.
                if (e instanceof OutcomeUnknownException || e instanceof RetriesExhaustedException
                        || FailureKind.of(e.code()) == FailureKind.PERMANENT
                        || FailureKind.of(e.code()) == FailureKind.OUTCOME_UNKNOWN) {
                    throw e;
                }
                failures.add("attempt " + (failures.count() + 1), e);
            }
            router.pause(failures);
        }
    }
}
