package org.elastras.otm.server;

import java.io.Closeable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.elastras.catalog.meta.ZkPaths;

/**
 * An OTM's lease: an ephemeral znode {@code <root>/otms/<id>} held by this process's ZooKeeper
 * session. The OTM may serve only while {@link #holds()}: from the moment the connection is
 * suspended (the session might be expiring) until it is re-established with the same session.
 * A lost session is final: the master may already have handed the partitions to another OTM,
 * so this OTM never serves again under this id.
 *
 * <p>Why suspension already stops service: the ZooKeeper client notices a dead connection after
 * at most two thirds of the session timeout, the server expires the session only after all of
 * it, and the master reassigns only after the expiry. So an OTM that still sees its connection
 * as up holds a session the master has not given away.
 *
 * <p>Thread-safe. Listener callbacks run on Curator's event thread.
 */
public final class LeaseKeeper implements Closeable {

    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class.getName());

    /** Told when the right to serve changes. Implementations must be quick and must not block. */
    public interface Listener {
        /** The connection is down: stop serving until {@link #leaseResumed()} (or lost). */
        void leaseSuspended();

        /** The same session is back: serving may resume. */
        void leaseResumed();

        /** The session is gone for good: stop serving every partition, permanently. */
        void leaseLost();
    }

    private enum State { NOT_ACQUIRED, HELD, SUSPENDED, LOST, CLOSED }

    private final CuratorFramework client;
    private final String path;
    private final byte[] registration;
    private final Listener listener;
    private final ConnectionStateListener connectionListener = this::onConnectionStateChanged;

    /** Guarded by {@code this}. */
    private State state = State.NOT_ACQUIRED;
    /** Guarded by {@code this}. The session the znode was created in. */
    private long sessionId;

    /**
     * @param registration the znode's data (the OTM's address and start time, as the OTM encodes it)
     */
    public LeaseKeeper(CuratorFramework client, ZkPaths paths, String otmId, byte[] registration, Listener listener) {
        ZkPaths.checkOtmId(otmId);
        this.client = client;
        this.path = paths.otm(otmId);
        this.registration = registration.clone();
        this.listener = listener;
    }

    /**
     * Waits for a connection and creates the ephemeral registration. If the id is registered
     * already, waits (up to the same timeout) for that registration to go: after a crash and a
     * quick restart under the same id it belongs to the dead process until its session expires or
     * the master fences it.
     *
     * @throws IllegalStateException if the id is still registered at the timeout (another live
     *     process holds this OTM id, or a crashed one's session outlived the wait)
     * @throws java.util.concurrent.TimeoutException if ZooKeeper cannot be reached in time
     */
    public void acquire(long timeoutMillis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        if (!client.blockUntilConnected((int) timeoutMillis, TimeUnit.MILLISECONDS)) {
            throw new java.util.concurrent.TimeoutException("cannot reach ZooKeeper within " + timeoutMillis
                    + " ms to acquire the lease " + path + ": check the connect string");
        }
        boolean told = false;
        while (!tryCreate(deadline, timeoutMillis)) {
            if (!told) {
                told = true;
                LOG.info(() -> "lease " + path + " is registered by another process (a crashed run of this id whose"
                        + " session has not expired yet?): waiting up to " + timeoutMillis + " ms for it to go");
            }
            // Woken by the registration's deletion (or any change of it), then tries again.
            CountDownLatch changed = new CountDownLatch(1);
            if (client.checkExists().usingWatcher((Watcher) event -> changed.countDown()).forPath(path) != null) {
                changed.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        }
        LOG.info(() -> "lease acquired: " + path + " session 0x" + Long.toHexString(sessionId));
    }

    /** One attempt to create the registration: false if it exists and there is time left to wait. */
    private synchronized boolean tryCreate(long deadline, long timeoutMillis) throws Exception {
        if (state != State.NOT_ACQUIRED) {
            throw new IllegalStateException("lease " + path + " already acquired (state " + state + ")");
        }
        client.getConnectionStateListenable().addListener(connectionListener);
        try {
            client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, registration);
        } catch (KeeperException.NodeExistsException e) {
            client.getConnectionStateListenable().removeListener(connectionListener);
            if (System.nanoTime() - deadline < 0) {
                return false;
            }
            throw new IllegalStateException("OTM id already registered at " + path + " after waiting " + timeoutMillis
                    + " ms: another process holds it, or a crashed one whose session has not expired yet;"
                    + " use another id or wait for the session timeout", e);
        }
        sessionId = client.getZookeeperClient().getZooKeeper().getSessionId();
        state = State.HELD;
        return true;
    }

    /** True while this OTM may serve: the lease is held and the connection is up. */
    public synchronized boolean holds() {
        return state == State.HELD;
    }

    /** True once the session is gone for good. */
    public synchronized boolean lost() {
        return state == State.LOST;
    }

    public String path() {
        return path;
    }

    private void onConnectionStateChanged(CuratorFramework c, ConnectionState newState) {
        switch (newState) {
            case SUSPENDED -> transition(State.HELD, State.SUSPENDED, listener::leaseSuspended);
            case RECONNECTED -> {
                if (sameSessionStillRegistered()) {
                    transition(State.SUSPENDED, State.HELD, listener::leaseResumed);
                } else {
                    markLost("reconnected with a different session");
                }
            }
            case LOST -> markLost("session lost");
            default -> {
            }
        }
    }

    private boolean sameSessionStillRegistered() {
        try {
            long current = client.getZookeeperClient().getZooKeeper().getSessionId();
            Stat stat = client.checkExists().forPath(path);
            synchronized (this) {
                return current == sessionId && stat != null && stat.getEphemeralOwner() == sessionId;
            }
        } catch (Exception e) {
            LOG.log(Level.WARNING, "cannot verify lease " + path + " after reconnect; treating it as lost", e);
            return false;
        }
    }

    private void transition(State from, State to, Runnable notify) {
        synchronized (this) {
            if (state != from) {
                return;
            }
            state = to;
        }
        LOG.info(() -> "lease " + path + ": " + from + " -> " + to);
        notify.run();
    }

    /** Marks the lease lost (final) and tells the listener once. */
    void markLost(String why) {
        synchronized (this) {
            if (state == State.LOST || state == State.CLOSED || state == State.NOT_ACQUIRED) {
                return;
            }
            state = State.LOST;
        }
        LOG.warning(() -> "lease " + path + " lost (" + why + "): this OTM stops serving for good");
        listener.leaseLost();
    }

    /** Gives the lease up: deletes the registration if still ours. */
    @Override
    public void close() {
        boolean delete;
        synchronized (this) {
            delete = state == State.HELD || state == State.SUSPENDED;
            state = State.CLOSED;
        }
        client.getConnectionStateListenable().removeListener(connectionListener);
        if (delete) {
            try {
                client.delete().guaranteed().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                // Already gone with the session.
            } catch (Exception e) {
                LOG.log(Level.WARNING, "could not delete lease " + path + "; it goes with the session", e);
            }
        }
    }
}
