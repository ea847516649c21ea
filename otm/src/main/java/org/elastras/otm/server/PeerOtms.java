package org.elastras.otm.server;

import java.util.LinkedHashMap;
import java.util.Map;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;

/**
 * Clients of the other OTMs this one talks to as a cross-partition coordinator, one per address,
 * created on first use. Bounded: past {@link #PEERS_MAX} addresses the least recently used client
 * is closed (its calls in flight fail, as an unreachable peer's would). Thread-safe.
 */
final class PeerOtms implements AutoCloseable {

    static final int PEERS_MAX = 256;

    private final OtmClientConfig config;
    /** Guarded by itself; access order, so the eldest is the least recently used. */
    private final LinkedHashMap<String, OtmClient> clients = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    PeerOtms(OtmClientConfig config) {
        this.config = config;
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
        synchronized (clients) {
            closed = true;
            for (OtmClient c : clients.values()) {
                c.close();
            }
            clients.clear();
        }
    }
}
