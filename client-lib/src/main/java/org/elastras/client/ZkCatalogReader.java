package org.elastras.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.PartitionState;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.WireFormat;
import org.elastras.client.protocol.WireValues;

/**
 * Reads the partition map the master keeps in ZooKeeper today, and turns it into catalog
 * {@link MetaRow}s so that routing runs the lookup the ROOT/META catalog will serve. Thread-safe
 * (Curator is; this class holds no state of its own).
 *
 * <p>The layout it reads (written by tm-master's {@code AssignmentStore} and the OTMs):
 * <pre>
 *   {root}/assign/databases/{NAME}   SchemaSpec JSON
 *   {root}/assign/partitions/{id}    JSON: database, partitionId, startKey, endKey (root-key wire
 *                                    values, null = unbounded), owner (OTM id or null), epoch
 *   {root}/otms/{id}                 ephemeral, JSON: host, port, startedMs
 * </pre>
 * The JSON is read with Jackson's tree model: client-lib does not depend on tm-master.
 *
 * <p>The map does not say whether the owner has finished opening a partition; a row with an
 * owner is reported {@link PartitionState#OPEN}, and an OTM still opening it answers
 * {@code NOT_OWNER}, which the client retries.
 *
 * <p>Cost of one read: one ZooKeeper read per partition of the cluster plus one per live OTM (the
 * map is not indexed by database). The META catalog will make this one range scan.
 */
final class ZkCatalogReader implements CatalogReader {

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final ObjectMapper json = new ObjectMapper();
    private final ProtocolCodec codec = new ProtocolCodec();

    /** A reader over a started Curator client it does not own (closing this closes nothing). */
    ZkCatalogReader(CuratorFramework zk, ZkPaths paths) {
        this.zk = zk;
        this.paths = paths;
    }

    @Override
    public CatalogSnapshot read(String database) {
        Names.check("database name", database);
        String name = Names.canonical(database);
        try {
            DatabaseSchema schema = readSchema(name);
            List<MetaRow> rows = new ArrayList<>();
            String partitions = paths.assign() + "/partitions";
            for (String id : children(partitions)) {
                byte[] data = dataOrNull(partitions + "/" + id);
                if (data == null) {
                    continue;
                }
                JsonNode record = json.readTree(data);
                if (Names.same(text(record, "database"), name)) {
                    rows.add(toRow(schema, record, partitions + "/" + id));
                }
            }
            return new CatalogSnapshot(schema, rows, liveOtms());
        } catch (ElasTrasException e) {
            throw e;
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("the partition map of " + name + " in ZooKeeper under " + paths.root()
                    + " does not decode: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "interrupted while reading the catalog of " + name, e);
        } catch (Exception e) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot read the catalog of " + name + " from ZooKeeper"
                    + " under " + paths.root() + " (" + e + "); retry when ZooKeeper is reachable", e);
        }
    }

    private DatabaseSchema readSchema(String name) throws Exception {
        byte[] data = dataOrNull(paths.assign() + "/databases/" + name);
        if (data == null) {
            List<String> known = children(paths.assign() + "/databases");
            throw new ElasTrasException(ErrorCode.UNKNOWN_DATABASE, "database " + name + " is not in the catalog (under "
                    + paths.root() + "); the databases are " + known + "; create it with the master first");
        }
        return codec.decode(data, SchemaSpec.class, WireFormat.JSON, "schema of database " + name).toSchema();
    }

    /** A partition record as the catalog row the META catalog would hold for it. */
    private static MetaRow toRow(DatabaseSchema schema, JsonNode record, String path) {
        long id = record.path("partitionId").asLong(0);
        long epoch = record.path("epoch").asLong(-1);
        String owner = record.hasNonNull("owner") ? record.get("owner").asText() : null;
        KeyRange range = KeyRange.ALL;
        if (schema.partitioning() == PartitioningKind.TREE) {
            KeyCodec codec = KeyCodec.forPartitionKey(schema);
            List<Column> columns = schema.partitionKeyColumns();
            byte[] start = bound(codec, columns, record.get("startKey"), path + " startKey");
            byte[] end = bound(codec, columns, record.get("endKey"), path + " endKey");
            range = new KeyRange(start, end);
        }
        PartitionDescriptor partition = new PartitionDescriptor(schema.name(), new PartitionId(id), range, epoch);
        return new MetaRow(partition, owner, owner == null ? PartitionState.UNASSIGNED : PartitionState.OPEN);
    }

    /** Encoded root key of wire values, or empty (unbounded) for null. */
    private static byte[] bound(KeyCodec codec, List<Column> columns, JsonNode values, String what) {
        if (values == null || values.isNull()) {
            return new byte[0];
        }
        if (!values.isArray() || values.size() != columns.size()) {
            throw new IllegalArgumentException(what + " is " + values + ", not " + columns.size() + " root-key values");
        }
        List<Object> out = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            out.add(WireValues.toColumnValue(what, columns.get(i), scalar(values.get(i))));
        }
        return codec.encode(out);
    }

    private static Object scalar(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isNumber()) {
            return v.numberValue();
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        throw new IllegalArgumentException("a root-key value is " + v + ", not a scalar");
    }

    private Map<String, OtmAddress> liveOtms() throws Exception {
        Map<String, OtmAddress> out = new HashMap<>();
        for (String id : children(paths.otms())) {
            byte[] data = dataOrNull(paths.otms() + "/" + id);
            if (data == null) {
                continue;
            }
            JsonNode registration;
            try {
                registration = json.readTree(data);
                out.put(id, new OtmAddress(text(registration, "host"), registration.path("port").asInt(0)));
            } catch (IOException | IllegalArgumentException e) {
                // An OTM we cannot reach by its registration is as good as absent: its partitions wait
                // for the master, and the error names the owner when a request needs it.
            }
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private List<String> children(String path) throws Exception {
        try {
            return zk.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private byte[] dataOrNull(String path) throws Exception {
        try {
            return zk.getData().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    @Override
    public void close() {
        // The Curator client belongs to the caller.
    }
}
