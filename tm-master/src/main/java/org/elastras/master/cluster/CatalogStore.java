package org.elastras.master.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.CatalogRows;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.WireFormat;
import org.elastras.client.protocol.WireValues;
import org.elastras.otm.catalog.PartitionRowSwap;
import org.elastras.otm.catalog.PartitionRowSwap.Version;

/**
 * The master's reads and writes of the catalog ({@link CatalogSchemas}): the ROOT partition's
 * record in ZooKeeper ({@code {root}/root}), the META partitions' records in ROOT, the user
 * partitions' records and the schemas in META and ROOT. The catalog partitions are served by OTMs;
 * every write is a transaction on the owner of the partition one level up (a {@link Holder}).
 *
 * <p>Writes are conditional, so that a deposed master that still writes fails instead of
 * overwriting the new master's assignment: the ROOT record by ZooKeeper version; a row by the
 * (epoch, writer) it holds, which must be one this store read or wrote itself — the last one it
 * knows, or one of its own attempts whose answer was lost. A SERIALIZABLE transaction reads the
 * row and writes it, so the check and the write are atomic on the catalog partition.
 *
 * <p>Reads at or after its own writes. A catalog owner begins a transaction at its snapshot, which
 * may trail a commit it already acknowledged, so every catalog transaction and call here begins with
 * a {@link CatalogHorizon} as {@code afterCts}: a row's compare-and-set with the highest CTS at which
 * this store wrote or read that row, a create's transactions and the reads of a whole catalog
 * partition with the highest CTS of this store's other transactions and reads there. So no owner
 * shows it a row older than one it wrote or read, which it would take for another master's (and
 * step down), nor misses a row it created; and an owner that lags waits only for what this store
 * needs from it, not for the other catalog partitions' progress. A write is a compare-and-set: a
 * stale snapshot could never make it overwrite a newer row (first updater wins), only make it refuse
 * wrongly. The one write of its rows whose CTS it never learns, a live move's hand-over made by the
 * destination, is covered by the check that a row holding an older version of this store's own was
 * read at a stale snapshot. Both, and an owner that does not reach the horizon in time (OVERLOADED),
 * are {@link CatalogUnavailableException} (retried), never {@link SupersededException}.
 *
 * <p>Thread-safe: writes of different partitions may run concurrently (the master never has two
 * writes of one partition in flight).
 */
public final class CatalogStore {

    /**
     * A write found the row holding the version of a live move's hand-over ({@link #prepareHandOver}):
     * the move's origin recorded the destination, so the partition is there and nowhere else.
     * The row's version is now known, so the next write of the partition may replace it.
     */
    public static final class HandedOverException extends Exception {
        private final PartitionRecord recorded;

        HandedOverException(PartitionRecord recorded) {
            super("the catalog row of partition " + recorded.partitionId() + " holds the hand-over to " + recorded.owner()
                    + " (epoch " + recorded.epoch() + ") that the move's origin wrote", null, false, false);
            this.recorded = recorded;
        }

        /** The record the origin wrote: the partition at the live move's destination. */
        public PartitionRecord recorded() {
            return recorded;
        }
    }

    /**
     * The catalog write a live move's origin makes after its hand-over (see {@link #prepareHandOver}).
     *
     * @param record the partition at the destination
     * @param version the version the row holds once it is written, this store's alone
     * @param swapArgs the arguments of the compare-and-set procedure ({@link PartitionRowSwap})
     */
    public record HandOver(PartitionRecord record, Version version, List<Object> swapArgs) {
    }

    /** Another master changed a record since this one read or wrote it: this one must stop acting. */
    public static final class SupersededException extends Exception {
        SupersededException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The catalog partition that must hold a record cannot be reached now (it is being recovered). */
    public static final class CatalogUnavailableException extends Exception {
        CatalogUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Where a record is written: catalog partition {@code partitionId} of {@code database} (ROOT or
     * META) on the OTM {@code otm} serving it.
     */
    public record Holder(String database, long partitionId, OtmClient otm) {
        public Holder {
            Objects.requireNonNull(database, "database");
            Objects.requireNonNull(otm, "otm");
        }
    }

    /** What the ROOT partition holds: the user databases' schemas and the META partitions. */
    public record RootContents(Map<String, SchemaSpec> databases, List<PartitionRecord> metaPartitions) {
    }

    /**
     * What one META partition holds: the records of databases that exist, and the largest partition
     * id among all its rows (also those an interrupted create left behind: their ids are not reused).
     */
    public record MetaContents(List<PartitionRecord> partitions, long maxPartitionId) {
    }

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final String writer;
    private final Function<String, SchemaSpec> schemas;
    private static final TableSchema PARTITIONS_TABLE = CatalogSchemas.meta().table(CatalogSchemas.PARTITIONS);
    /** Marks the versions of hand-over writes: this store's writer with it is a writer no write of its own uses. */
    static final String HAND_OVER_WRITER_SUFFIX = "+hand-over";

    private final ProtocolCodec codec = new ProtocolCodec();
    /** Per partition id: the row versions a write may replace. Each set is guarded by itself. */
    private final Map<Long, Set<Version>> acceptable = new ConcurrentHashMap<>();
    /**
     * Per partition id: the hand-over write given to a live move's origin whose outcome this store
     * has not learned. At most one per partition; gone once learned or once this store wrote the
     * row itself (after which it can no longer land: it names only older versions).
     */
    private final Map<Long, HandOver> handOvers = new ConcurrentHashMap<>();
    /** Guarded by this: the ZooKeeper version of the ROOT record last read or written, -1 if none. */
    private int rootVersion = -1;
    /**
     * Per partition id: the highest CTS at which this store wrote the partition's catalog row or read
     * it, where a compare-and-set of the row begins. One entry per partition, like {@link #acceptable}.
     */
    private final Map<Long, CatalogHorizon> rowHorizons = new ConcurrentHashMap<>();
    /**
     * Per catalog partition id (ROOT's, each META partition's): the highest CTS of this store's
     * transactions there other than row swaps (a create's writes, the first META row) and of its reads
     * of the whole partition, where those begin.
     */
    private final Map<Long, CatalogHorizon> partitionHorizons = new ConcurrentHashMap<>();

    /**
     * @param writer names this master's term in the rows it writes (at most 192 characters)
     * @param schemas a user database's schema by canonical name, null if unknown
     */
    public CatalogStore(CuratorFramework zk, ZkPaths paths, String writer, Function<String, SchemaSpec> schemas) {
        this.zk = Objects.requireNonNull(zk, "zk");
        this.paths = Objects.requireNonNull(paths, "paths");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.schemas = Objects.requireNonNull(schemas, "schemas");
    }

    // ---------------------------------------------------------------- ROOT's record (ZooKeeper)

    /** Reads the ROOT partition's record, creating it (unassigned) if the cluster has none yet. */
    public synchronized PartitionRecord loadRootRecord() throws Exception {
        String path = paths.rootPartition();
        while (true) {
            Stat stat = new Stat();
            try {
                byte[] data = zk.getData().storingStatIn(stat).forPath(path);
                PartitionRecord record = codec.decode(data, PartitionRecord.class, WireFormat.JSON, "ROOT record " + path);
                if (record.partitionId() != CatalogSchemas.ROOT_PARTITION_ID
                        || !Names.same(record.database(), CatalogSchemas.ROOT_DATABASE)) {
                    throw new IllegalStateException(path + " names partition " + record.partitionId() + " of "
                            + record.database() + ", not the ROOT partition");
                }
                rootVersion = stat.getVersion();
                return record;
            } catch (KeeperException.NoNodeException absent) {
                PartitionRecord fresh = PartitionRecord.unassigned(CatalogSchemas.ROOT_DATABASE,
                        CatalogSchemas.ROOT_PARTITION_ID, null, null);
                try {
                    zk.create().creatingParentContainersIfNeeded().forPath(path, codec.encode(fresh, WireFormat.JSON));
                } catch (KeeperException.NodeExistsException raced) {
                    // Another master created it meanwhile: read theirs.
                }
            }
        }
    }

    private synchronized void writeRootRecord(PartitionRecord record) throws Exception {
        if (rootVersion < 0) {
            throw new IllegalStateException("the ROOT record was never loaded by this master");
        }
        try {
            Stat stat = zk.setData().withVersion(rootVersion).forPath(paths.rootPartition(),
                    codec.encode(record, WireFormat.JSON));
            rootVersion = stat.getVersion();
        } catch (KeeperException.BadVersionException e) {
            throw new SupersededException("the ROOT record in " + paths.rootPartition() + " was changed by someone else:"
                    + " another master is active; this one must step down", e);
        }
    }

    // ---------------------------------------------------------------- reads

    /**
     * Reads the ROOT partition, in one transaction at or after ROOT's horizon: every user database's
     * schema and every META partition's record.
     *
     * @throws ElasTrasException as ROOT's owner answers (NOT_OWNER, NOT_SERVING, OVERLOADED if its
     *     snapshot did not reach the horizon in time: retry)
     */
    public RootContents loadRoot(OtmClient rootOwner) {
        return readOnly(rootOwner, CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID, (txnId, snapshotCts) -> {
            Map<String, SchemaSpec> databases = new TreeMap<>();
            for (Map.Entry<String, String> e : CatalogRows.schemaJsonsIn(rootOwner, txnId).entrySet()) {
                databases.put(e.getKey(), codec.decode(e.getValue().getBytes(StandardCharsets.UTF_8), SchemaSpec.class,
                        WireFormat.JSON, "schema of database " + e.getKey()));
            }
            List<PartitionRecord> metas = new ArrayList<>();
            for (CatalogRows.PartitionRow row : CatalogRows.scanIn(rootOwner, txnId, null)) {
                metas.add(known(row, snapshotCts));
            }
            return new RootContents(databases, metas);
        });
    }

    /**
     * Reads META partition {@code metaPartitionId}: the records of the databases in {@code databases}
     * (canonical names); rows of other databases are left from a create that never finished.
     */
    public MetaContents loadMeta(OtmClient owner, long metaPartitionId, Set<String> databases) {
        return readOnly(owner, CatalogSchemas.META_DATABASE, metaPartitionId, (txnId, snapshotCts) -> {
            List<PartitionRecord> out = new ArrayList<>();
            long maxId = 0;
            for (CatalogRows.PartitionRow row : CatalogRows.scanIn(owner, txnId, null)) {
                maxId = Math.max(maxId, row.row().partition().id().value());
                if (databases.contains(row.row().partition().database())) {
                    out.add(known(row, snapshotCts));
                }
            }
            return new MetaContents(out, maxId);
        });
    }

    /**
     * The record a row holds, read at {@code snapshotCts}: now known to this store as the version a
     * write may replace, which that write must read at or after that snapshot.
     */
    private PartitionRecord known(CatalogRows.PartitionRow row, long snapshotCts) {
        MetaRow m = row.row();
        if (row.record() == null) {
            throw new IllegalStateException("catalog row of partition " + m.partition().id() + " has no RECORD");
        }
        PartitionRecord record = codec.decode(row.record().getBytes(StandardCharsets.UTF_8), PartitionRecord.class,
                WireFormat.JSON, "catalog record of partition " + m.partition().id());
        if (record.partitionId() != m.partition().id().value() || record.epoch() != m.partition().epoch()
                || !Objects.equals(record.owner(), m.owner()) || !Names.same(record.database(), m.partition().database())) {
            throw new IllegalStateException("catalog row of partition " + m.partition().id() + " disagrees with its RECORD "
                    + record + ": " + m);
        }
        remember(record.partitionId(), new Version(record.epoch(), row.writer()));
        rowHorizon(record.partitionId()).reached(snapshotCts);
        return record;
    }

    private CatalogHorizon rowHorizon(long partitionId) {
        return rowHorizons.computeIfAbsent(partitionId, id -> new CatalogHorizon());
    }

    private CatalogHorizon partitionHorizon(long catalogPartitionId) {
        return partitionHorizons.computeIfAbsent(catalogPartitionId, id -> new CatalogHorizon());
    }

    private void remember(long partitionId, Version version) {
        Set<Version> set = acceptable.computeIfAbsent(partitionId, id -> new HashSet<>());
        synchronized (set) {
            set.clear();
            set.add(version);
        }
    }

    // ---------------------------------------------------------------- writes

    /**
     * The first META partition's record, written into ROOT (unassigned) if ROOT has no META
     * partition yet: the step of a new cluster's bootstrap after ROOT serves.
     */
    public PartitionRecord createFirstMeta(OtmClient rootOwner) throws Exception {
        PartitionRecord meta = PartitionRecord.unassigned(CatalogSchemas.META_DATABASE,
                CatalogSchemas.FIRST_META_PARTITION_ID, null, null);
        Holder root = new Holder(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID, rootOwner);
        inTransaction(root, "create the first META partition", partitionHorizon(root.partitionId()), txnId -> {
            MetaRow row = toMetaRow(meta);
            GetResponse existing = rootOwner.get(new GetRequest(txnId, CatalogSchemas.PARTITIONS, CatalogRows.keyOf(row)));
            if (!existing.found()) {
                rootOwner.put(new PutRequest(txnId, CatalogSchemas.PARTITIONS, CatalogRows.toWire(row, json(meta), writer)));
            }
        });
        // Read back at or after the write (ROOT's horizon covers it): ROOT's owner's snapshot may trail it.
        return readOnly(rootOwner, CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID, (txnId, snapshotCts) ->
                known(CatalogRows.scanIn(rootOwner, txnId, null).stream()
                        .filter(r -> r.row().partition().id().value() == meta.partitionId()).findFirst()
                        .orElseThrow(() -> new IllegalStateException(
                                "the first META partition's row is not in ROOT after writing it")), snapshotCts));
    }

    /**
     * Rewrites a partition's record (new owner and epoch): in ZooKeeper for ROOT ({@code holder}
     * null), else in {@code holder}, if the row still holds a version this store knows. One request
     * to the holder: the catalog's compare-and-set procedure ({@link PartitionRowSwap}); an OTM
     * without it (an older version) gets the same check as an interactive transaction.
     *
     * @throws SupersededException if someone else changed it: another master is active
     * @throws CatalogUnavailableException if the holder cannot be reached or does not serve it now,
     *     or its snapshot trails this store's writes (it did not reach the horizon in time, or it
     *     showed an older version of this store's own): retry
     * @throws HandedOverException if the row holds a live move's hand-over this store gave its origin
     *     to write ({@link #prepareHandOver}): the partition is at that move's destination
     */
    public void write(PartitionRecord record, Holder holder) throws Exception {
        if (CatalogSchemas.level(record.database()) == 0) {
            writeRootRecord(record);
            return;
        }
        Objects.requireNonNull(holder, "holder");
        Set<Version> set = acceptable.get(record.partitionId());
        if (set == null) {
            throw new IllegalStateException("partition " + record.partitionId() + " was never loaded or created here");
        }
        Version mine = new Version(record.epoch(), writer);
        List<Version> versions;
        synchronized (set) {
            set.add(mine);
            versions = new ArrayList<>(set);
        }
        MetaRow row = toMetaRow(record);
        Map<String, Object> wire = CatalogRows.toWire(row, json(record), writer);
        String what = "record partition " + record.partitionId();
        PartitionRowSwap.Result result;
        try {
            if (versions.size() > PartitionRowSwap.VERSIONS_MAX) {
                // Many attempts whose answers were lost (a long catalog outage): more than one call carries.
                throw new SwapNotUsable("the row may hold any of " + versions.size() + " versions");
            }
            result = swap(holder, what, versions, wire, rowHorizon(record.partitionId()));
        } catch (SwapNotUsable missing) {
            try {
                writeInTransaction(record, holder, set, row, wire);
            } catch (FoundHandOver found) {
                handedOver(record.partitionId(), found.found);
                throw new IllegalStateException("unreachable: a found hand-over is pending", found);
            }
            remember(record.partitionId(), mine);
            handOvers.remove(record.partitionId());
            return;
        }
        switch (result.outcome()) {
            case SWAPPED -> {
                remember(record.partitionId(), mine);
                handOvers.remove(record.partitionId());
            }
            case MISSING -> throw new SupersededException("the catalog row of partition " + record.partitionId()
                    + " is gone from " + holder.database() + " partition " + holder.partitionId()
                    + "; another master is active and this one must step down", null);
            case SUPERSEDED -> {
                handedOver(record.partitionId(), result.found());
                if (replacedByThisStore(result.found(), versions)) {
                    throw staleRead(holder, what, result.found());
                }
                throw new SupersededException("the catalog row of partition " + record.partitionId()
                        + " was written by " + result.found().writer() + " (epoch " + result.found().epoch()
                        + "), not by this master; another master is active and this one must step down", null);
            }
        }
    }

    /**
     * The catalog write for a live move's origin to make once the destination holds the complete
     * copy: {@code record} (the partition at the destination) under a version of its own that no
     * write of this store uses, so that a later write of this store that finds it learns that the
     * origin's write landed ({@link HandedOverException}) instead of writing over it. Null if the
     * record cannot be written that way: ROOT's record (in ZooKeeper), or a row whose possible
     * versions are too many to name.
     */
    public HandOver prepareHandOver(PartitionRecord record) {
        if (CatalogSchemas.level(record.database()) == 0) {
            return null;
        }
        Set<Version> set = acceptable.get(record.partitionId());
        if (set == null) {
            return null;
        }
        List<Version> versions;
        synchronized (set) {
            versions = new ArrayList<>(set);
        }
        if (versions.isEmpty() || versions.size() > PartitionRowSwap.VERSIONS_MAX) {
            return null;
        }
        Version version = new Version(record.epoch(), writer + HAND_OVER_WRITER_SUFFIX);
        Map<String, Object> wire = CatalogRows.toWire(toMetaRow(record), json(record), version.writer());
        HandOver h = new HandOver(record, version, PartitionRowSwap.args(versions, rowValues(wire)));
        handOvers.put(record.partitionId(), h);
        return h;
    }

    /** The origin confirmed the hand-over's write: the row holds its version. */
    public void handOverRecorded(HandOver h) {
        handOvers.remove(h.record().partitionId(), h);
        remember(h.record().partitionId(), h.version());
    }

    /** A write found {@code found} in the row: if it is a pending hand-over's, the origin's write landed. */
    private void handedOver(long partitionId, Version found) throws HandedOverException {
        HandOver h = handOvers.get(partitionId);
        if (h != null && h.version().equals(found) && handOvers.remove(partitionId, h)) {
            remember(partitionId, found);
            throw new HandedOverException(h.record());
        }
    }

    /** The swap cannot be used for this write (the holder does not know it, or too many versions to name). */
    private static final class SwapNotUsable extends Exception {
        SwapNotUsable(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Calls {@link PartitionRowSwap} on the holder: one request, one transaction there, begun at or
     * after the row's horizon (the swap reads the row before it writes, and a row older than this
     * store's last write or read of it would look like another master's, or missing). Raises the
     * row's horizon to the call's CTS: its commit's, or the snapshot it read at if it wrote nothing.
     */
    private PartitionRowSwap.Result swap(Holder holder, String what, List<Version> versions, Map<String, Object> wire,
            CatalogHorizon rowHorizon) throws CatalogUnavailableException, SwapNotUsable {
        CallRequest call = PartitionRowSwap.request(holder.database(), holder.partitionId(),
                PartitionRowSwap.args(versions, rowValues(wire)));
        CallResponse response;
        try {
            response = holder.otm().call(new CallRequest(call.database(), call.partitionId(), call.procedure(),
                    call.args(), call.isolation(), rowHorizon.afterCts(), call.commitId()));
        } catch (ElasTrasException e) {
            if (e.code() == ErrorCode.UNKNOWN_PROCEDURE) {
                throw new SwapNotUsable(e.getMessage());
            }
            throw unavailable(holder, what, e);
        }
        rowHorizon.reached(response.cts());
        return PartitionRowSwap.Result.fromWire(response.result());
    }

    /**
     * Whether {@code found} is an older version of this store's own than one it named as acceptable
     * (the newest of {@code versions}): a row this store itself replaced since. No other master
     * writes this store's writer, so such an answer means the owner read the row at a snapshot that
     * trails this store's newer write of it: a live move's hand-over, whose CTS this store never
     * learns (its other writes are at or below the row's horizon, where the read began).
     */
    private boolean replacedByThisStore(Version found, List<Version> versions) {
        if (!found.writer().equals(writer) && !found.writer().equals(writer + HAND_OVER_WRITER_SUFFIX)) {
            return false;
        }
        long newest = Long.MIN_VALUE;
        for (Version v : versions) {
            newest = Math.max(newest, v.epoch());
        }
        return found.epoch() < newest;
    }

    /** A write that read an older version of this store's own row: the holder's snapshot trails; retry. */
    private static CatalogUnavailableException staleRead(Holder holder, String what, Version found) {
        return new CatalogUnavailableException("cannot " + what + " now: catalog partition " + holder.partitionId()
                + " of " + holder.database() + " showed the row at epoch " + found.epoch() + ", which this master"
                + " itself replaced since; its owner's snapshot trails this master's write of it; retry", null);
    }

    /** A PARTITIONS row's wire values in the table's column order (what the swap takes). */
    private static List<Object> rowValues(Map<String, Object> wire) {
        List<Object> values = new ArrayList<>(PARTITIONS_TABLE.columns().size());
        for (Column c : PARTITIONS_TABLE.columns()) {
            values.add(wire.get(c.name()));
        }
        return values;
    }

    /** The same compare-and-set as {@link PartitionRowSwap}, as an interactive SERIALIZABLE transaction. */
    private void writeInTransaction(PartitionRecord record, Holder holder, Set<Version> set, MetaRow row,
            Map<String, Object> wire) throws CatalogUnavailableException, SupersededException {
        OtmClient otm = holder.otm();
        String what = "record partition " + record.partitionId();
        inTransaction(holder, what, rowHorizon(record.partitionId()), txnId -> {
            GetResponse current = otm.get(new GetRequest(txnId, CatalogSchemas.PARTITIONS, CatalogRows.keyOf(row)));
            if (!current.found()) {
                throw new Superseded("the catalog row of partition " + record.partitionId() + " is gone from "
                        + holder.database() + " partition " + holder.partitionId());
            }
            CatalogRows.PartitionRow found = CatalogRows.fromWire(current.row());
            Version version = new Version(found.row().partition().epoch(), found.writer());
            boolean ok;
            List<Version> versions;
            synchronized (set) {
                ok = set.contains(version);
                versions = new ArrayList<>(set);
            }
            if (!ok) {
                HandOver h = handOvers.get(record.partitionId());
                if (h != null && h.version().equals(version)) {
                    throw new FoundHandOver(version);
                }
                if (replacedByThisStore(version, versions)) {
                    throw new StaleRead(staleRead(holder, what, version));
                }
                throw new Superseded("the catalog row of partition " + record.partitionId() + " was written by "
                        + found.writer() + " (epoch " + version.epoch() + "), not by this master");
            }
            otm.put(new PutRequest(txnId, CatalogSchemas.PARTITIONS, wire));
        });
    }

    /**
     * Records a new database: its partitions' rows in META (replacing rows a create that never
     * finished left under the same name), then its schema in ROOT, which is the point where the
     * database exists.
     *
     * @param metaHolderOf the META partition that must hold a record
     * @return the highest commit timestamp of these writes (ROOT's and META's owners take CTSs from
     *     different ranges, so either may be the highest): a catalog read that begins with it as
     *     {@code afterCts} finds the database and all its rows, though the owners' snapshots may
     *     trail the commits
     * @throws IllegalArgumentException if the database exists already
     */
    public long createDatabase(SchemaSpec schema, List<PartitionRecord> records, Holder root,
            Function<PartitionRecord, Holder> metaHolderOf) throws Exception {
        String name = Names.canonical(schema.name());
        boolean exists;
        try {
            exists = readOnly(root.otm(), CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID,
                    (txnId, snapshotCts) -> root.otm().get(new GetRequest(txnId, CatalogSchemas.DATABASES,
                            List.of(name))).found());
        } catch (ElasTrasException e) {
            throw unavailable(root, "create database " + name, e);
        }
        if (exists) {
            throw new IllegalArgumentException("database " + schema.name() + " exists already; choose another name");
        }
        Map<Long, List<PartitionRecord>> byHolder = new LinkedHashMap<>();
        Map<Long, Holder> holders = new LinkedHashMap<>();
        for (PartitionRecord r : records) {
            Holder h = metaHolderOf.apply(r);
            holders.put(h.partitionId(), h);
            byHolder.computeIfAbsent(h.partitionId(), id -> new ArrayList<>()).add(r);
        }
        long catalogCts = 0;
        Map<Long, Long> writtenAt = new HashMap<>();
        for (Map.Entry<Long, List<PartitionRecord>> e : byHolder.entrySet()) {
            Holder h = holders.get(e.getKey());
            OtmClient otm = h.otm();
            long cts = inTransaction(h, "record the partitions of " + name, partitionHorizon(h.partitionId()), txnId -> {
                for (CatalogRows.PartitionRow left : CatalogRows.scanIn(otm, txnId, name)) {
                    otm.delete(new DeleteRequest(txnId, CatalogSchemas.PARTITIONS, CatalogRows.keyOf(left.row())));
                }
                for (PartitionRecord r : e.getValue()) {
                    otm.put(new PutRequest(txnId, CatalogSchemas.PARTITIONS,
                            CatalogRows.toWire(toMetaRow(r, schema), json(r), writer)));
                }
            });
            for (PartitionRecord r : e.getValue()) {
                writtenAt.put(r.partitionId(), cts);
            }
            catalogCts = Math.max(catalogCts, cts);
        }
        String schemaJson = new String(codec.encode(schema, WireFormat.JSON), StandardCharsets.UTF_8);
        if (schemaJson.length() > CatalogSchemas.SCHEMA_CHARS_MAX) {
            throw new IllegalArgumentException("the schema of " + name + " is " + schemaJson.length()
                    + " characters as JSON; the catalog holds at most " + CatalogSchemas.SCHEMA_CHARS_MAX);
        }
        OtmClient rootOtm = root.otm();
        catalogCts = Math.max(catalogCts, inTransaction(root, "record database " + name,
                partitionHorizon(root.partitionId()), txnId -> {
            GetResponse existing = rootOtm.get(new GetRequest(txnId, CatalogSchemas.DATABASES, List.of(name)));
            if (existing.found()) {
                throw new IllegalArgumentException("database " + schema.name() + " exists already; choose another name");
            }
            rootOtm.put(new PutRequest(txnId, CatalogSchemas.DATABASES,
                    Map.of(CatalogSchemas.NAME, name, CatalogSchemas.SCHEMA, schemaJson)));
        }));
        for (PartitionRecord r : records) {
            remember(r.partitionId(), new Version(r.epoch(), writer));
            // The open that follows rewrites the row at once: it must not find it missing.
            rowHorizon(r.partitionId()).reached(writtenAt.get(r.partitionId()));
        }
        return catalogCts;
    }

    /** Thrown inside a transaction body: the row holds a pending hand-over's version. */
    private static final class FoundHandOver extends RuntimeException {
        final Version found;

        FoundHandOver(Version found) {
            super("the row holds a hand-over", null, false, false);
            this.found = found;
        }
    }

    /** Thrown inside a transaction body: the row is not one this master knows. */
    private static final class Superseded extends RuntimeException {
        Superseded(String message) {
            super(message);
        }
    }

    /** Thrown inside a transaction body: the row is an older version of this store's own (a stale snapshot). */
    private static final class StaleRead extends RuntimeException {
        final CatalogUnavailableException unavailable;

        StaleRead(CatalogUnavailableException unavailable) {
            super(unavailable.getMessage(), null, false, false);
            this.unavailable = unavailable;
        }
    }

    /** The writes of a catalog transaction, run with its id on the holder. */
    @FunctionalInterface
    private interface Writes {
        void run(long txnId);
    }

    /**
     * Runs {@code body} in a SERIALIZABLE transaction on the holder, begun at or after
     * {@code horizon} (that of what the body reads), and commits it; aborts it if the body fails.
     * Returns the commit's CTS (the snapshot it read at if it wrote nothing), to which it raises
     * {@code horizon}: a read that begins with it as {@code afterCts} sees the writes. Maps the OTM's
     * answers: a row of another master to {@link SupersededException}, an unreachable or not-serving
     * holder, or one whose snapshot trails this store's writes, to {@link CatalogUnavailableException}.
     */
    private long inTransaction(Holder holder, String what, CatalogHorizon horizon, Writes body)
            throws CatalogUnavailableException, SupersededException {
        OtmClient otm = holder.otm();
        long txnId;
        try {
            txnId = otm.begin(new BeginRequest(holder.database(), holder.partitionId(), Isolation.SERIALIZABLE,
                    horizon.afterCts())).txnId();
        } catch (ElasTrasException e) {
            throw unavailable(holder, what, e);
        }
        try {
            body.run(txnId);
            long cts = otm.commit(new CommitRequest(txnId)).cts();
            horizon.reached(cts);
            return cts;
        } catch (RuntimeException e) {
            try {
                otm.abort(new AbortRequest(txnId));
            } catch (RuntimeException ignored) {
                e.addSuppressed(ignored);
            }
            if (e instanceof Superseded s) {
                throw new SupersededException(s.getMessage() + "; another master is active and this one must step down", s);
            }
            if (e instanceof StaleRead stale) {
                throw stale.unavailable;
            }
            if (e instanceof ElasTrasException ee) {
                throw unavailable(holder, what, ee);
            }
            throw e;
        }
    }

    /** The reads of a read-only catalog transaction, run with its id and the snapshot it reads at. */
    @FunctionalInterface
    private interface Reads<T> {
        T run(long txnId, long snapshotCts);
    }

    /**
     * Runs {@code body} in a read-only SNAPSHOT transaction on catalog partition {@code partitionId}
     * of {@code database}, begun at or after that partition's horizon (so it sees what this store's
     * transactions there wrote), commits it and raises the horizon to the snapshot it read at; aborts
     * it if the body fails.
     *
     * @throws ElasTrasException as the owner answers (NOT_OWNER, NOT_SERVING, UNREACHABLE, or
     *     OVERLOADED if its snapshot did not reach the horizon in time: all retryable)
     */
    private <T> T readOnly(OtmClient otm, String database, long partitionId, Reads<T> body) {
        CatalogHorizon horizon = partitionHorizon(partitionId);
        BeginResponse begun = otm.begin(new BeginRequest(database, partitionId, Isolation.SNAPSHOT, horizon.afterCts()));
        T result;
        try {
            result = body.run(begun.txnId(), begun.snapshotCts());
        } catch (RuntimeException e) {
            try {
                otm.abort(new AbortRequest(begun.txnId()));
            } catch (RuntimeException ignored) {
                e.addSuppressed(ignored);
            }
            throw e;
        }
        otm.commit(new CommitRequest(begun.txnId()));
        horizon.reached(begun.snapshotCts());
        return result;
    }

    /** {@code e} as {@link CatalogUnavailableException} if it says the holder cannot serve now; else rethrows it. */
    private static CatalogUnavailableException unavailable(Holder holder, String what, ElasTrasException e) {
        if (e.code() == ErrorCode.NOT_OWNER || e.code() == ErrorCode.NOT_SERVING || e.code() == ErrorCode.UNREACHABLE
                || e.code() == ErrorCode.OVERLOADED) {
            return new CatalogUnavailableException("cannot " + what + ": catalog partition " + holder.partitionId() + " of "
                    + holder.database() + " is not reachable now (" + e.code() + ": " + e.getMessage() + ")", e);
        }
        throw e;
    }

    // ---------------------------------------------------------------- rows

    /** The catalog row of {@code record}: its bounds encoded with its database's schema. */
    public MetaRow toMetaRow(PartitionRecord record) {
        return toMetaRow(record, null);
    }

    /**
     * The catalog row of {@code record}, its bounds encoded with {@code schema} (a user database's,
     * not known to this store yet), or with the schema this store knows if that is null.
     */
    public MetaRow toMetaRow(PartitionRecord record, SchemaSpec schema) {
        KeyRange range = schema == null ? encodedRange(record) : encodedRange(record, schema.toSchema());
        PartitionDescriptor partition = new PartitionDescriptor(record.database(), new PartitionId(record.partitionId()),
                range, record.epoch());
        return new MetaRow(partition, record.owner(), record.owner() == null
                ? org.elastras.catalog.meta.PartitionState.UNASSIGNED : org.elastras.catalog.meta.PartitionState.OPEN);
    }

    /** The encoded root-key range of a partition. */
    public KeyRange encodedRange(PartitionRecord record) {
        return encodedRange(record, schemaOf(record.database()));
    }

    private static KeyRange encodedRange(PartitionRecord record, DatabaseSchema schema) {
        if (schema.partitioning() != PartitioningKind.TREE) {
            return KeyRange.ALL;
        }
        KeyCodec codec = KeyCodec.forPartitionKey(schema);
        return new KeyRange(encode(codec, schema, record.startKey(), "start"), encode(codec, schema, record.endKey(), "end"));
    }

    private static byte[] encode(KeyCodec codec, DatabaseSchema schema, List<Object> bound, String which) {
        if (bound == null) {
            return new byte[0];
        }
        List<Column> columns = schema.partitionKeyColumns();
        if (bound.size() != columns.size()) {
            throw new IllegalArgumentException("the " + which + " key of a partition of " + schema.name() + " has "
                    + bound.size() + " values; its root key has " + columns.size());
        }
        List<Object> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            values.add(WireValues.toColumnValue(which + " key of " + schema.name(), columns.get(i), bound.get(i)));
        }
        return codec.encode(values);
    }

    private DatabaseSchema schemaOf(String database) {
        return switch (CatalogSchemas.level(database)) {
            case 0 -> CatalogSchemas.root();
            case 1 -> CatalogSchemas.meta();
            default -> {
                SchemaSpec spec = schemas.apply(Names.canonical(database));
                if (spec == null) {
                    throw new IllegalStateException("no schema known for database " + database);
                }
                yield spec.toSchema();
            }
        };
    }

    private String json(PartitionRecord record) {
        return new String(codec.encode(record, WireFormat.JSON), StandardCharsets.UTF_8);
    }
}
