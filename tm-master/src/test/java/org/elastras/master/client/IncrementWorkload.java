package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OutcomeUnknownException;

/**
 * Application threads that increment LEDGER counters through the routing client while a test
 * breaks things under them, and the check afterwards: each client runs one thread per way of
 * incrementing — a stored procedure, an idempotent one ({@code callIdempotent}, which records a
 * request id), and a read-modify-write interactive transaction ({@code runInTransaction}). A
 * thread stops at its first error; a counter must end holding exactly its acknowledged increments,
 * give or take those reported as {@link OutcomeUnknownException} (idempotent calls: exactly).
 */
final class IncrementWorkload {

    /** How a worker increments. */
    enum Kind { CALL, IDEMPOTENT_CALL, TRANSACTION }

    static final int[] PLAIN_ACCOUNTS = {50, 150, 250, 350};
    static final int[] IDEMPOTENT_ACCOUNTS = {60, 160, 260, 360};
    static final int[] TRANSACTION_ACCOUNTS = {70, 170, 270, 370};

    /** What the check found. */
    record Totals(long acknowledged, long unknown) {
    }

    private final Map<Integer, LongAdder> acknowledged = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> maybe = new ConcurrentHashMap<>();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong latencyMsMax = new AtomicLong();
    private final List<Worker> workers = new ArrayList<>();
    private volatile boolean stopping;
    private volatile boolean marked;

    /** One worker of each kind per client. */
    IncrementWorkload(List<ElasTrasClient> clients) {
        for (int c = 0; c < clients.size(); c++) {
            for (Kind kind : Kind.values()) {
                workers.add(new Worker(clients.get(c), "c" + c + "-" + kind, kind, new Random(31L * c + kind.ordinal())));
            }
        }
    }

    void start() {
        workers.forEach(Worker::start);
    }

    /** From now on, completed operations count as "after the mark". */
    void mark() {
        marked = true;
    }

    /** Waits until every worker completed {@code min} operations (after the mark, if {@code afterMark}). */
    void awaitOps(int min, boolean afterMark, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (workers.stream().anyMatch(w -> (afterMark ? w.opsAfterMark : w.ops) < min && w.isAlive())) {
            assertTrue(System.nanoTime() < deadline, "workers too slow (" + (afterMark ? "after" : "before")
                    + " the mark): " + errors);
            Thread.sleep(5);
        }
        assertEquals(List.of(), errors, "errors reached the application");
    }

    List<String> errors() {
        return List.copyOf(errors);
    }

    long latencyMsMax() {
        return latencyMsMax.get();
    }

    /** Operations per worker so far. */
    Map<String, Integer> ops() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        workers.forEach(w -> out.put(w.getName(), w.ops));
        return out;
    }

    /** Stops every worker and waits for it. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Worker w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(40));
            assertFalse(w.isAlive(), w.getName() + " did not finish");
        }
    }

    /** Checks every counter against what the workers were told, reading through {@code reader}. */
    Totals check(ElasTrasClient reader) {
        assertEquals(List.of(), errors, "errors reached the application");
        long acked = 0;
        long unknown = 0;
        int[] plain = java.util.Arrays.copyOf(PLAIN_ACCOUNTS, PLAIN_ACCOUNTS.length + TRANSACTION_ACCOUNTS.length);
        System.arraycopy(TRANSACTION_ACCOUNTS, 0, plain, PLAIN_ACCOUNTS.length, TRANSACTION_ACCOUNTS.length);
        for (int a : plain) {
            long total = ((Number) reader.call("LEDGER", "total", List.of(a), List.of(a))).longValue();
            long ack = count(acknowledged, a);
            long may = count(maybe, a);
            assertTrue(total >= ack && total <= ack + may, "account " + a + " holds " + total + "; acknowledged "
                    + ack + ", outcome unknown " + may);
            acked += ack;
            unknown += may;
        }
        for (int a : IDEMPOTENT_ACCOUNTS) {
            long total = ((Number) reader.call("LEDGER", "total", List.of(a), List.of(a))).longValue();
            assertEquals(count(acknowledged, a), total, "idempotent account " + a);
            assertEquals(0, count(maybe, a), "idempotent calls are re-sent, never reported unknown");
            acked += total;
        }
        return new Totals(acked, unknown);
    }

    private static long count(Map<Integer, LongAdder> counts, int account) {
        LongAdder n = counts.get(account);
        return n == null ? 0 : n.sum();
    }

    /** One application thread: increments until told to stop, never giving up on its own. */
    private final class Worker extends Thread {
        private final ElasTrasClient client;
        private final Kind kind;
        private final Random random;
        volatile int ops;
        volatile int opsAfterMark;

        Worker(ElasTrasClient client, String name, Kind kind, Random random) {
            super(name);
            setDaemon(true);
            this.client = client;
            this.kind = kind;
            this.random = random;
        }

        @Override
        public void run() {
            int n = 0;
            while (!stopping) {
                int[] accounts = switch (kind) {
                    case CALL -> PLAIN_ACCOUNTS;
                    case IDEMPOTENT_CALL -> IDEMPOTENT_ACCOUNTS;
                    case TRANSACTION -> TRANSACTION_ACCOUNTS;
                };
                int a = accounts[random.nextInt(accounts.length)];
                long started = System.nanoTime();
                boolean afterMark = marked;
                try {
                    switch (kind) {
                        case CALL -> client.call("LEDGER", "increment", List.of(a), List.of(a));
                        case IDEMPOTENT_CALL -> client.callIdempotent("LEDGER", "incrementOnce", List.of(a),
                                List.of(a, getName() + "-" + n++));
                        case TRANSACTION -> client.runInTransaction("LEDGER", List.of(a), txn -> {
                            long total = txn.get("ACCOUNT", List.of(a)).map(r -> (Long) r.get("TOTAL")).orElse(0L);
                            txn.put("ACCOUNT", Map.of("A_ID", a, "TOTAL", total + 1));
                            return total + 1;
                        });
                        default -> throw new IllegalStateException();
                    }
                    acknowledged.computeIfAbsent(a, k -> new LongAdder()).increment();
                } catch (OutcomeUnknownException e) {
                    maybe.computeIfAbsent(a, k -> new LongAdder()).increment();
                } catch (RuntimeException e) {
                    errors.add(getName() + ": " + e);
                    return;
                }
                latencyMsMax.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
                ops++;
                if (afterMark) {
                    opsAfterMark++; // Started and completed after the mark.
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
