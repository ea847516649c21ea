package org.elastras.otm.server;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.CatalogHandOver;
import org.elastras.client.protocol.DropIncomingRequest;
import org.elastras.client.protocol.DropIncomingResponse;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.FinishIncomingResponse;
import org.elastras.client.protocol.HandOverOutcome;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ReceivePartitionRequest;
import org.elastras.client.protocol.ReceivePartitionResponse;
import org.elastras.client.protocol.ShipVersionsRequest;
import org.elastras.client.protocol.ShipVersionsResponse;
import org.elastras.client.protocol.ShippedCommit;
import org.elastras.otm.catalog.PartitionRowSwap;

/**
 * Clients of the other OTMs this one talks to as a cross-partition coordinator, one per address,
 * created on first use. Bounded: past {@link #PEERS_MAX} addresses the least recently used client
 * is closed (its calls in flight fail, as an unreachable peer's would). Thread-safe.
 */
final class PeerOtms implements AutoCloseable {

    static final int PEERS_MAX = 256;
    /**
     * What OTMs send each other inside a live move's pause or just before it: the move's own
     * requests (origin to destination), the catalog write (a procedure call, destination to the
     * catalog's holder), the schema and the connection check. {@link #warmUp} builds their readers
     * and writers ahead for this OTM's clients; the OTM's server warms the same set.
     */
    static final Set<Operation> SENT_IN_MOVES;

    static {
        EnumSet<Operation> sent = EnumSet.copyOf(Operation.MOVES);
        sent.addAll(EnumSet.of(Operation.CALL, Operation.CALL_BATCH, Operation.REGISTER_DATABASE, Operation.STATUS));
        SENT_IN_MOVES = Collections.unmodifiableSet(sent);
    }
    /** Connections {@link #connectSoon} may have waiting; more are dropped (the first call connects then). */
    static final int CONNECTS_WAITING_MAX = 16;

    private static final Logger LOG = Logger.getLogger(PeerOtms.class.getName());

    private final OtmClientConfig config;
    /** One thread, started on first use, ending when idle: connections made ahead of need. */
    private final ThreadPoolExecutor connector = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(CONNECTS_WAITING_MAX), r -> {
                Thread t = new Thread(r, "peer-connect");
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.DiscardPolicy());
    /** Guarded by itself; access order, so the eldest is the least recently used. */
    private final LinkedHashMap<String, OtmClient> clients = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    PeerOtms(OtmClientConfig config) {
        this.config = config;
        connector.allowCoreThreadTimeOut(true);
    }

    /**
     * Connects to the OTM at {@code host:port} in the background (a {@code status} request), so
     * that a call to it that must be quick later (a live move's catalog write, made while the
     * partition is paused) does not also pay for the client, the connection and the HTTP/2
     * handshake. Failures are only logged: the later call connects, or fails, on its own.
     */
    void connectSoon(String host, int port) {
        connector.execute(() -> {
            long started = System.nanoTime();
            try {
                of(host, port).status();
                LOG.fine(() -> "connected to " + host + ":" + port + " ahead of need in "
                        + (System.nanoTime() - started) / 1_000_000 + " ms");
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "connecting to " + host + ":" + port + " ahead of need failed", e);
            }
        });
    }

    /**
     * Builds now the readers and writers of {@link #SENT_IN_MOVES} for this OTM's clients: the
     * server's codec has other bounds, so its warm-up does not cover them, and a move's first
     * requests (the origin's hand-over, the destination's catalog write) built them inside the
     * move's pause, tens of milliseconds a type.
     */
    void warmUp() {
        OtmClient.warmUp(config, SENT_IN_MOVES, samplesSentInMoves());
    }

    /**
     * One message of each kind a live move's pause sends and answers between OTMs, shaped as a
     * move's (nested lists, byte strings, the hand-over's catalog write and its outcome), for the
     * codecs' warm-up ({@link org.elastras.client.protocol.ProtocolCodec#warmUp(java.util.Collection,
     * java.util.Collection)}): the first finish a fresh OTM sent or answered ran their code cold.
     */
    static List<Record> samplesSentInMoves() {
        ShippedCommit commit = new ShippedCommit(1_000_001L, List.of(new byte[18], new byte[26]),
                List.of(new byte[60], new byte[120]));
        // A PARTITIONS row: database, start key, id, end key, owner, state, epoch, record, writer.
        List<Object> row = Arrays.asList("TPCC", new byte[9], 3L, new byte[9], "otm-2", 1, 4L,
                "{\"host\":\"127.0.0.1\",\"port\":9000}", "master-1/0000000001");
        List<Object> swapArgs = PartitionRowSwap.args(List.of(new PartitionRowSwap.Version(3, "otm-1")), row);
        CatalogHandOver handOver = new CatalogHandOver("127.0.0.1", 9_000, "META", 2, swapArgs);
        return List.of(
                new ReceivePartitionRequest("TPCC", 3, List.of(1L), List.of(2L), "otm-1", 7, "127.0.0.1", 9_000),
                new ReceivePartitionResponse(),
                new ShipVersionsRequest(3, 1, List.of(commit, commit)),
                new ShipVersionsResponse(4),
                new FinishIncomingRequest(3, 2, List.of(commit), handOver),
                new FinishIncomingResponse(8, new HandOverOutcome(true, 3, true, 2, 1_700_000_000_000L, null), 5),
                new DropIncomingRequest(3),
                new DropIncomingResponse(true),
                PartitionRowSwap.request("META", 2, swapArgs),
                new CallResponse(List.of(PartitionRowSwap.Outcome.SWAPPED.name()), 1_000_002L, 1));
    }

    /** The client of the OTM at {@code host:port}. */
    OtmClient of(String host, int port) {
        OtmClient evicted = null;
        OtmClient client;
        synchronized (clients) {
            if (closed) {
                throw new IllegalStateException("this OTM is shutting down");
            }
            String key = host + ":" + port;
            client = clients.get(key);
            if (client == null) {
                client = new OtmClient(host, port, config);
                clients.put(key, client);
                if (clients.size() > PEERS_MAX) {
                    Map.Entry<String, OtmClient> eldest = clients.entrySet().iterator().next();
                    evicted = eldest.getValue();
                    clients.remove(eldest.getKey());
                }
            }
        }
        if (evicted != null) {
            evicted.close();
        }
        return client;
    }

    @Override
    public void close() {
        connector.shutdownNow();
        synchronized (clients) {
            closed = true;
            for (OtmClient c : clients.values()) {
                c.close();
            }
            clients.clear();
        }
    }
}
