package org.elastras.experiments.otm;

import java.util.ArrayList;
import java.util.List;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.otm.http.OtmService;

/**
 * The transaction as one {@code call} of the stored procedure {@code readTenWriteFive} on an
 * {@link InProcessOtm}, SERIALIZABLE (the OTM's default), acknowledged after the WAL group-commit
 * sync. The OTM re-runs the procedure itself on a conflict; the response's {@code attempts} says
 * how often. Thread-safe.
 */
final class OtmTarget implements TransactionTarget {

    /** How the client threads reach the OTM. */
    enum ClientMode {
        /**
         * Every thread calls through one {@link OtmClient} that sends each call as its own request
         * (the design before call coalescing): one HTTP/2 connection, streams multiplexed.
         */
        SHARED,
        /**
         * Every thread calls through one {@link OtmClient} that coalesces concurrent calls into
         * {@code callBatch} requests (the default {@link OtmClientConfig}).
         */
        SHARED_COALESCING,
        /** Every thread has its own {@link OtmClient}: one connection per thread. */
        PER_THREAD,
        /**
         * Diagnostic: every thread calls the OTM's service in this JVM, no HTTP and no client; what
         * the engine (procedure, storage, WAL group commit) costs alone.
         */
        DIRECT
    }

    /** Which procedure each call runs: the measured one, or a lighter one that isolates a cost. */
    enum Workload {
        /** The benchmark's transaction: read 10 rows, write 5, durable commit. */
        READ_TEN_WRITE_FIVE("readTenWriteFive", ItemTable.WRITES_PER_TRANSACTION, ""),
        /** Diagnostic: the same reads, no writes, so no WAL record and no sync (commit validates the reads). */
        READ_TEN("readTen", 0, "-read-only"),
        /** Diagnostic: begin and commit an empty transaction: the HTTP round trip and dispatch alone. */
        EMPTY("empty", 0, "-empty");

        final String procedure;
        final int writes;
        final String suffix;

        Workload(String procedure, int writes, String suffix) {
            this.procedure = procedure;
            this.writes = writes;
            this.suffix = suffix;
        }
    }

    /** A per-thread client needs few I/O threads: it has one call in flight at a time. */
    private static final int PER_THREAD_CLIENT_THREADS = 4;

    private final InProcessOtm otm;
    private final ClientMode mode;
    private final long rows;
    private final Workload workload;

    OtmTarget(InProcessOtm otm, ClientMode mode, long rows, Workload workload) {
        this.otm = otm;
        this.mode = mode;
        this.rows = rows;
        this.workload = workload;
    }

    @Override
    public String name() {
        String client = switch (mode) {
            case SHARED -> "otm-shared-client";
            case SHARED_COALESCING -> "otm-coalescing-client";
            case PER_THREAD -> "otm-client-per-thread";
            case DIRECT -> "otm-direct";
        };
        return client + workload.suffix;
    }

    @Override
    public int writesPerTransaction() {
        return workload.writes;
    }

    @Override
    public String description() {
        return (mode == ClientMode.DIRECT ? "ElasTraS OTM in this JVM, " : "ElasTraS OTM over the framed transport on 127.0.0.1, ")
                + switch (mode) {
                    case SHARED -> "one OtmClient shared by all threads, a request per call";
                    case SHARED_COALESCING -> "one OtmClient shared by all threads, concurrent calls coalesced into"
                            + " callBatch requests";
                    case PER_THREAD -> "one OtmClient per thread";
                    case DIRECT -> "no HTTP: each thread calls the OTM's service in this JVM";
                }
                + ", stored procedure " + workload.procedure
                + ", SERIALIZABLE, WAL sync per group commit";
    }

    @Override
    public Session openSession() {
        if (mode == ClientMode.DIRECT) {
            return directSession();
        }
        OtmClientConfig d = OtmClientConfig.defaults();
        OtmClient client = switch (mode) {
            case SHARED -> otm.unbatchedClient();
            case SHARED_COALESCING -> otm.client();
            case PER_THREAD -> new OtmClient("127.0.0.1", otm.port(), new OtmClientConfig(d.connectTimeoutMs(),
                    d.requestTimeoutMs(), d.responseBytesMax(), d.requestsQueuedMax(), PER_THREAD_CLIENT_THREADS)
                    .withoutCallBatching());
            case DIRECT -> throw new AssertionError("direct sessions have no client");
        };
        boolean owned = mode == ClientMode.PER_THREAD;
        return new Session() {
            private final List<Object> args = new ArrayList<>(ItemTable.READS_PER_TRANSACTION);

            @Override
            public int run(long[] keys) {
                args.clear();
                for (long key : keys) {
                    args.add(key);
                }
                CallResponse response = client.call(new CallRequest(ItemTable.DATABASE, ItemTable.PARTITION_ID,
                        workload.procedure, List.copyOf(args), Isolation.SERIALIZABLE, 0));
                return response.attempts() - 1;
            }

            @Override
            public void close() {
                if (owned) {
                    client.close();
                }
            }
        };
    }

    private Session directSession() {
        OtmService service = otm.service();
        String client = "direct-" + Thread.currentThread().getName();
        return new Session() {
            @Override
            public int run(long[] keys) {
                List<Object> args = new ArrayList<>(keys.length);
                for (long key : keys) {
                    args.add(key);
                }
                CallResponse response = service.call(new CallRequest(ItemTable.DATABASE, ItemTable.PARTITION_ID,
                        workload.procedure, args, Isolation.SERIALIZABLE, 0), client);
                return response.attempts() - 1;
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public long balanceSum() {
        return otm.balanceSum(rows);
    }
}
