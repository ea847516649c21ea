package org.elastras.master.timestamp;

import java.io.IOException;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.elastras.catalog.meta.ZkPaths;

/**
 * The high-water mark in ZooKeeper at {@code {root}/ts} ({@link ZkPaths#ts()}), written with a
 * version-checked {@code setData}: a master advances the mark only from the version it last read
 * or wrote, so of two masters that both believe they are active, only one can advance it. Layout
 * in {@link HighWaterMarkFormat}. Thread-safe (methods are synchronized; one master instance uses
 * one store).
 *
 * <p>A write whose outcome is unknown (connection lost) is resolved on the next attempt: if the
 * node is at the next version and carries this store's writer id, it was our own write.
 */
public final class ZkHighWaterMarkStore implements HighWaterMarkStore {

    private static final int LOAD_ATTEMPTS_MAX = 3;

    private final CuratorFramework client;
    private final String path;
    private final long writerId;

    /** Guarded by this: the version last read or written, -1 before {@link #load()}. */
    private int version = -1;
    /** Guarded by this: the mark last read or written. */
    private long markCts;

    /**
     * @param client a started Curator client
     * @param writerId unique to this master instance (for example random at start): how the store
     *     recognises its own writes
     */
    public ZkHighWaterMarkStore(CuratorFramework client, ZkPaths paths, long writerId) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = paths.ts();
        this.writerId = writerId;
    }

    @Override
    public synchronized long load() throws IOException {
        for (int attempt = 0; attempt < LOAD_ATTEMPTS_MAX; attempt++) {
            try {
                Stat stat = new Stat();
                byte[] data = client.getData().storingStatIn(stat).forPath(path);
                markCts = HighWaterMarkFormat.decode(data, path).markCts();
                version = stat.getVersion();
                return markCts;
            } catch (KeeperException.NoNodeException e) {
                try {
                    client.create().creatingParentsIfNeeded().forPath(path, HighWaterMarkFormat.encode(0, writerId));
                    markCts = 0;
                    version = 0;
                    return 0;
                } catch (KeeperException.NodeExistsException raced) {
                    // Another master created it first: read it on the next attempt.
                } catch (Exception createFailed) {
                    throw new IOException("cannot create the high-water mark node " + path + ": " + createFailed, createFailed);
                }
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException("cannot read the high-water mark node " + path + ": " + e, e);
            }
        }
        throw new IOException("the high-water mark node " + path + " kept appearing and disappearing; is another process"
                + " deleting it?");
    }

    @Override
    public synchronized void advance(long newMarkCts) throws HighWaterMarkConflictException, IOException {
        if (version < 0) {
            throw new IllegalStateException("advance before load");
        }
        if (newMarkCts <= markCts) {
            throw new IllegalArgumentException("new high-water mark " + newMarkCts + " is not above " + markCts);
        }
        // Two rounds at most: the first may only learn that an earlier write of ours did land.
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                Stat stat = client.setData().withVersion(version).forPath(path, HighWaterMarkFormat.encode(newMarkCts, writerId));
                version = stat.getVersion();
                markCts = newMarkCts;
                return;
            } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
                adoptOwnEarlierWrite(e);
            } catch (Exception e) {
                throw new IOException("writing the high-water mark " + newMarkCts + " to " + path + " failed (" + e
                        + "); the outcome is resolved on the next attempt", e);
            }
        }
        throw new IOException("writing the high-water mark " + newMarkCts + " to " + path + " did not settle in two attempts");
    }

    /** After a version mismatch: accept the node only if it is our own lost write, else it is a conflict. */
    private void adoptOwnEarlierWrite(KeeperException cause) throws HighWaterMarkConflictException, IOException {
        Stat stat = new Stat();
        byte[] data;
        try {
            data = client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            throw new HighWaterMarkConflictException("the high-water mark node " + path + " was deleted; this master stops issuing");
        } catch (Exception e) {
            throw new IOException("cannot read back the high-water mark node " + path + " after " + cause + ": " + e, e);
        }
        HighWaterMarkFormat.Decoded decoded = HighWaterMarkFormat.decode(data, path);
        if (stat.getVersion() == version + 1 && decoded.writerId() == writerId && decoded.markCts() > markCts) {
            version = stat.getVersion();
            markCts = decoded.markCts();
            return;
        }
        throw new HighWaterMarkConflictException("the high-water mark at " + path + " is at version " + stat.getVersion()
                + " (mark " + decoded.markCts() + ", writer " + decoded.writerId() + "), not version " + version
                + " that this master (writer " + writerId + ") last wrote: another master is active; this one stops issuing");
    }
}
