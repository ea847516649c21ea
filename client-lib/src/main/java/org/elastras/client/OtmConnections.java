package org.elastras.client;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The client's connections: one {@link OtmClient} per OTM (each multiplexes any number of
 * concurrent calls). Thread-safe.
 *
 * <p>Callers {@link #acquire} a connection for one request and {@link #release} it afterwards. A
 * connection is closed when its OTM is {@link #retire retired} (it could not be reached, or an
 * answer was lost) or evicted (least recently used, when more than {@code connectionsMax} OTMs are
 * in use) — at once if nobody is using it, else when its last user releases it, so that closing
 * never breaks another thread's call in flight. Retired connections still in use may briefly
 * exceed the bound.
 */
final class OtmConnections implements AutoCloseable {

    /** One connection and how many requests use it now. */
    static final class Lease {
        private final String otmId;
        private final OtmAddress address;
        private final OtmClient client;
        /** Guarded by the pool. */
        private int users;
        /** Guarded by the pool: no longer handed out; closed when users reaches 0. */
        private boolean retired;

        private Lease(String otmId, OtmAddress address, OtmClient client) {
            this.otmId = otmId;
            this.address = address;
            this.client = client;
        }

        OtmClient client() {
            return client;
        }

        String otmId() {
            return otmId;
        }
    }

    private final int connectionsMax;
    private final BiFunction<String, Integer, OtmClient> factory;
    /** Guarded by this; by OTM id, least recently used first. */
    private final LinkedHashMap<String, Lease> open = new LinkedHashMap<>(16, 0.75f, true);
    /** Guarded by this. */
    private boolean closed;
    /** Guarded by this: connections ever opened, for tests. */
    private long opened;

    /**
     * @param factory opens a client of (host, port)
     */
    OtmConnections(int connectionsMax, BiFunction<String, Integer, OtmClient> factory) {
        if (connectionsMax < 1 || connectionsMax > 100_000) {
            throw new IllegalArgumentException("otmConnectionsMax must be 1 to 100000, got " + connectionsMax);
        }
        this.connectionsMax = connectionsMax;
        this.factory = factory;
    }

    /** A connection to the OTM of {@code location}, opened if needed; give it back with {@link #release}. */
    Lease acquire(PartitionLocation location) {
        OtmAddress address = new OtmAddress(location.host(), location.port());
        List<OtmClient> toClose = new ArrayList<>();
        Lease lease;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the ElasTrasClient is closed");
            }
            lease = open.get(location.otmId());
            if (lease != null && !lease.address.equals(address)) {
                // The OTM id came back at another address (a restart): the old connection is useless.
                retireLocked(lease, toClose);
                lease = null;
            }
            if (lease == null) {
                lease = new Lease(location.otmId(), address, factory.apply(address.host(), address.port()));
                opened++;
                open.put(location.otmId(), lease);
                Iterator<Lease> eldest = open.values().iterator();
                while (open.size() > connectionsMax) {
                    Lease e = eldest.next();
                    eldest.remove();
                    e.retired = true;
                    if (e.users == 0) {
                        toClose.add(e.client);
                    }
                }
            }
            lease.users++;
        }
        toClose.forEach(OtmClient::close);
        return lease;
    }

    /** Gives a connection back; closes it if it was retired meanwhile and this was its last user. */
    void release(Lease lease) {
        boolean close;
        synchronized (this) {
            if (lease.users <= 0) {
                throw new IllegalStateException("connection to " + lease.otmId + " released more often than acquired");
            }
            lease.users--;
            close = lease.retired && lease.users == 0;
        }
        if (close) {
            lease.client.close();
        }
    }

    /**
     * Stops handing out {@code lease}'s connection (its OTM failed, or a call on it lost its answer);
     * the next acquire opens a new one. Closed once nobody uses it.
     */
    void retire(Lease lease) {
        List<OtmClient> toClose = new ArrayList<>();
        synchronized (this) {
            retireLocked(lease, toClose);
        }
        toClose.forEach(OtmClient::close);
    }

    private void retireLocked(Lease lease, List<OtmClient> toClose) {
        if (open.get(lease.otmId) == lease) {
            open.remove(lease.otmId);
        }
        if (!lease.retired) {
            lease.retired = true;
            if (lease.users == 0) {
                toClose.add(lease.client);
            }
        }
    }

    /**
     * Retires the connections of OTMs not in {@code liveOtmIds} (their registration is gone: they
     * failed or stopped), as seen by a catalog read.
     */
    void retainOnly(Set<String> liveOtmIds) {
        List<OtmClient> toClose = new ArrayList<>();
        synchronized (this) {
            for (Lease lease : new ArrayList<>(open.values())) {
                if (!liveOtmIds.contains(lease.otmId)) {
                    retireLocked(lease, toClose);
                }
            }
        }
        toClose.forEach(OtmClient::close);
    }

    /** OTMs with a connection handed out now or available. */
    synchronized int size() {
        return open.size();
    }

    /** Connections opened since start. */
    synchronized long opened() {
        return opened;
    }

    /** Closes every connection; calls in flight fail. Idempotent. */
    @Override
    public void close() {
        List<Lease> all;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(open.values());
            open.clear();
        }
        for (Lease l : all) {
            l.client.close();
        }
    }

    /** For tests: the lease map's view. */
    synchronized Map<String, OtmAddress> addresses() {
        Map<String, OtmAddress> out = new LinkedHashMap<>();
        open.forEach((id, l) -> out.put(id, l.address));
        return out;
    }
}
