package org.elastras.master.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.WireFormat;

/**
 * The partition map in ZooKeeper, so that a master taking over can rebuild it:
 *
 * <pre>
 *   {root}/assign/databases/{NAME}      a database's schema, as SchemaSpec JSON
 *   {root}/assign/partitions/{id}       a PartitionRecord as JSON: database, range, owner, epoch
 * </pre>
 *
 * <p>This is a stand-in: the design puts this map in the ROOT/META catalog partitions, served by
 * OTMs and changed by the master in transactions; when that catalog exists, it replaces this
 * store (and ZooKeeper keeps only the location of ROOT).
 *
 * <p>A partition record is rewritten with a version-checked {@code setData} from the version this
 * store last read or wrote, so a deposed master that still writes fails instead of overwriting
 * the new master's assignment.
 *
 * <p>Thread-safe: methods are synchronized.
 */
public final class AssignmentStore {

    /** What {@link #load()} read. */
    public record Loaded(Map<String, SchemaSpec> databases, List<PartitionRecord> partitions) {
    }

    /** Another master changed a record since this one read or wrote it: this one must stop acting. */
    public static final class SupersededException extends Exception {
        SupersededException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final CuratorFramework client;
    private final String databasesPath;
    private final String partitionsPath;
    private final ProtocolCodec codec = new ProtocolCodec();
    /** Guarded by this: the znode version of each partition record last read or written. */
    private final Map<Long, Integer> versions = new HashMap<>();

    public AssignmentStore(CuratorFramework client, ZkPaths paths) {
        this.client = Objects.requireNonNull(client, "client");
        this.databasesPath = paths.assign() + "/databases";
        this.partitionsPath = paths.assign() + "/partitions";
    }

    /** Reads every database and partition (and forgets versions from an earlier term). */
    public synchronized Loaded load() throws Exception {
        ensureParents();
        versions.clear();
        Map<String, SchemaSpec> databases = new TreeMap<>();
        for (String name : client.getChildren().forPath(databasesPath)) {
            byte[] data = client.getData().forPath(databasesPath + "/" + name);
            databases.put(name, codec.decode(data, SchemaSpec.class, WireFormat.JSON, "schema of " + name));
        }
        List<PartitionRecord> partitions = new ArrayList<>();
        for (String id : client.getChildren().forPath(partitionsPath)) {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(partitionsPath + "/" + id);
            PartitionRecord record = codec.decode(data, PartitionRecord.class, WireFormat.JSON, "partition record " + id);
            if (!Long.toString(record.partitionId()).equals(id)) {
                throw new IllegalStateException("partition record " + partitionsPath + "/" + id + " holds partition "
                        + record.partitionId());
            }
            partitions.add(record);
            versions.put(record.partitionId(), stat.getVersion());
        }
        return new Loaded(databases, partitions);
    }

    /**
     * Creates a database and its partitions in one ZooKeeper transaction.
     *
     * @throws IllegalArgumentException if the database (or a partition id) exists already
     */
    public synchronized void createDatabase(SchemaSpec schema, List<PartitionRecord> partitions) throws Exception {
        ensureParents();
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(client.transactionOp().create().forPath(databasePath(schema.name()), codec.encode(schema, WireFormat.JSON)));
        for (PartitionRecord p : partitions) {
            ops.add(client.transactionOp().create().forPath(partitionPath(p.partitionId()), codec.encode(p, WireFormat.JSON)));
        }
        try {
            client.transaction().forOperations(ops);
        } catch (KeeperException.NodeExistsException e) {
            throw new IllegalArgumentException("database " + schema.name() + " (or one of its partition ids) exists"
                    + " already; choose another name", e);
        }
        for (PartitionRecord p : partitions) {
            versions.put(p.partitionId(), 0);
        }
    }

    /**
     * Rewrites a partition's record (new owner and epoch).
     *
     * @throws SupersededException if the record changed since this store last read or wrote it:
     *     another master is active
     */
    public synchronized void write(PartitionRecord record) throws Exception {
        Integer version = versions.get(record.partitionId());
        if (version == null) {
            throw new IllegalStateException("partition " + record.partitionId() + " was never loaded or created here");
        }
        try {
            Stat stat = client.setData().withVersion(version)
                    .forPath(partitionPath(record.partitionId()), codec.encode(record, WireFormat.JSON));
            versions.put(record.partitionId(), stat.getVersion());
        } catch (KeeperException.BadVersionException e) {
            throw new SupersededException("the record of partition " + record.partitionId()
                    + " was changed by someone else: another master is active; this one must step down", e);
        }
    }

    private void ensureParents() throws Exception {
        for (String path : List.of(databasesPath, partitionsPath)) {
            if (client.checkExists().forPath(path) == null) {
                try {
                    client.create().creatingParentsIfNeeded().forPath(path);
                } catch (KeeperException.NodeExistsException raced) {
                    // Created by another master meanwhile.
                }
            }
        }
    }

    private String databasePath(String name) {
        return databasesPath + "/" + org.elastras.catalog.schema.Names.canonical(name);
    }

    private String partitionPath(long partitionId) {
        return partitionsPath + "/" + partitionId;
    }
}
