package org.elastras.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.WireFormat;

/**
 * Reads the catalog the way the design lays it out: ZooKeeper -> ROOT -> META. Thread-safe (its
 * only state is the client's {@link CatalogHorizon}, itself thread-safe; the connections are the
 * client's).
 *
 * <p>One read of a database: the ROOT partition's location from {@code {root}/root} and the live
 * OTMs from {@code {root}/otms} (ZooKeeper); then, in one read-only transaction on the ROOT
 * partition's owner, the database's schema (table DATABASES) and the rows of the META partitions
 * (table PARTITIONS); then, on the owner of each META partition that may hold rows of the
 * database, one read-only transaction scanning them. So a database's whole partition map comes
 * with one range scan (the "neighbouring rows" of the design).
 *
 * <p>Every read-only transaction begins with the {@link CatalogHorizon}'s CTS as {@code afterCts}:
 * a catalog owner's snapshot may trail the master's newest catalog commit, and a database this
 * client created (and was told exists) must not be missing from its next read.
 *
 * <p>A catalog partition that is moving or recovering answers NOT_OWNER or NOT_SERVING, and an
 * owner that died cannot be reached: the read then fails with a retryable {@code UNREACHABLE} and
 * the client tries again within its deadline, by which time the master has reopened it. So does an
 * owner whose snapshot did not reach the horizon in time (OVERLOADED).
 */
final class MetaCatalogReader implements CatalogReader {

    /** Most database names an unknown-database error lists. */
    private static final int KNOWN_LISTED_MAX = 20;

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final OtmConnections connections;
    private final CatalogHorizon horizon;
    private final ObjectMapper json = new ObjectMapper();
    private final ProtocolCodec codec = new ProtocolCodec();

    /**
     * A reader over a started Curator client and connections it does not own (closing this closes
     * nothing), whose reads begin at or after {@code horizon}'s CTS.
     */
    MetaCatalogReader(CuratorFramework zk, ZkPaths paths, OtmConnections connections, CatalogHorizon horizon) {
        this.zk = zk;
        this.paths = paths;
        this.connections = connections;
        this.horizon = Objects.requireNonNull(horizon, "horizon");
    }

    @Override
    public CatalogSnapshot read(String database) {
        Names.check("database name", database);
        String name = Names.canonical(database);
        if (CatalogSchemas.reserved(name)) {
            throw new ElasTrasException(ErrorCode.UNKNOWN_DATABASE, "database " + name
                    + " is part of the catalog; applications cannot use it");
        }
        // Read once: every transaction of this read sees at least what the horizon covered when it began.
        long afterCts = horizon.afterCts();
        try {
            Map<String, OtmAddress> live = liveOtms();
            PartitionLocation root = rootLocation(live);
            Optional<String> schemaJson = onOwner(root, otm -> CatalogRows.schemaJson(otm, name, afterCts));
            if (schemaJson.isEmpty()) {
                List<String> known = new ArrayList<>(new java.util.TreeSet<>(onOwner(root,
                        otm -> CatalogRows.schemaJsons(otm, afterCts)).keySet()));
                String listed = known.size() <= KNOWN_LISTED_MAX ? known.toString()
                        : known.subList(0, KNOWN_LISTED_MAX) + " and " + (known.size() - KNOWN_LISTED_MAX) + " more";
                throw new ElasTrasException(ErrorCode.UNKNOWN_DATABASE, "database " + name + " is not in the catalog (under "
                        + paths.root() + "); the databases are " + listed + "; create it with the master first");
            }
            DatabaseSchema schema = codec.decode(schemaJson.get().getBytes(StandardCharsets.UTF_8), SchemaSpec.class,
                    WireFormat.JSON, "schema of database " + name).toSchema();
            List<CatalogRows.PartitionRow> metaPartitions = onOwner(root, otm ->
                    CatalogRows.scan(otm, CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID,
                            CatalogSchemas.META_DATABASE, afterCts));
            KeyRange wanted = CatalogSchemas.metaRangeOf(name);
            List<MetaRow> rows = new ArrayList<>();
            for (CatalogRows.PartitionRow meta : metaPartitions) {
                MetaRow m = meta.row();
                if (!m.partition().range().overlaps(wanted)) {
                    continue;
                }
                PartitionLocation at = locationOf(m, live);
                for (CatalogRows.PartitionRow r : onOwner(at, otm -> CatalogRows.scan(otm, CatalogSchemas.META_DATABASE,
                        m.partition().id().value(), name, afterCts))) {
                    rows.add(r.row());
                }
            }
            return new CatalogSnapshot(schema, rows, live);
        } catch (ElasTrasException e) {
            if (e.code() == ErrorCode.UNKNOWN_DATABASE || e.code() == ErrorCode.UNREACHABLE) {
                throw e;
            }
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot read the catalog of " + name + " now ("
                    + e.code() + ": " + e.getMessage() + "); it is being recovered or moved, retry", e);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("the catalog of " + name + " under " + paths.root() + " does not decode: "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "interrupted while reading the catalog of " + name, e);
        } catch (Exception e) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot read the catalog of " + name + " (" + e
                    + "); retry when ZooKeeper and the catalog's OTMs are reachable", e);
        }
    }

    /** The ROOT partition's location from ZooKeeper (written by the master before it opens ROOT). */
    private PartitionLocation rootLocation(Map<String, OtmAddress> live) throws Exception {
        byte[] data;
        try {
            data = zk.getData().forPath(paths.rootPartition());
        } catch (KeeperException.NoNodeException e) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "the cluster under " + paths.root()
                    + " has no catalog yet (no master has created ROOT); retry once a master runs");
        }
        JsonNode record = json.readTree(data);
        String owner = record.hasNonNull("owner") ? record.get("owner").asText() : null;
        OtmAddress address = owner == null ? null : live.get(owner);
        if (address == null) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "the ROOT catalog partition has no live owner now ("
                    + owner + "); the master is reassigning it, retry");
        }
        return new PartitionLocation(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID,
                record.path("epoch").asLong(0), KeyRange.ALL, owner, address.host(), address.port());
    }

    private static PartitionLocation locationOf(MetaRow row, Map<String, OtmAddress> live) {
        OtmAddress address = row.owner() == null ? null : live.get(row.owner());
        if (address == null) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "catalog partition " + row.partition().id()
                    + " has no live owner now (" + row.owner() + "); the master is reassigning it, retry");
        }
        return new PartitionLocation(row.partition().database(), row.partition().id().value(), row.partition().epoch(),
                row.partition().range(), row.owner(), address.host(), address.port());
    }

    /** Runs {@code read} with a connection to {@code location}'s owner; a dead connection is retired. */
    private <T> T onOwner(PartitionLocation location, java.util.function.Function<OtmClient, T> read) {
        OtmConnections.Lease lease = connections.acquire(location);
        try {
            return read.apply(lease.client());
        } catch (ElasTrasException e) {
            if (e.code() == ErrorCode.UNREACHABLE || e.code() == ErrorCode.OUTCOME_UNKNOWN) {
                connections.retire(lease);
            }
            throw e;
        } finally {
            connections.release(lease);
        }
    }

    private Map<String, OtmAddress> liveOtms() throws Exception {
        Map<String, OtmAddress> out = new HashMap<>();
        List<String> ids;
        try {
            ids = zk.getChildren().forPath(paths.otms());
        } catch (KeeperException.NoNodeException e) {
            return out;
        }
        for (String id : ids) {
            byte[] data;
            try {
                data = zk.getData().forPath(paths.otm(id));
            } catch (KeeperException.NoNodeException gone) {
                continue;
            }
            try {
                JsonNode registration = json.readTree(data);
                out.put(id, new OtmAddress(registration.path("host").asText(null), registration.path("port").asInt(0)));
            } catch (IOException | IllegalArgumentException e) {
                // An OTM we cannot reach by its registration is as good as absent: its partitions wait
                // for the master, and the error names the owner when a request needs it.
            }
        }
        return out;
    }

    @Override
    public void close() {
        // The Curator client and the connections belong to the caller.
    }
}
