package org.elastras.catalog.meta;

import java.util.List;
import java.util.Set;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.SchemaLimits;

/**
 * The two system databases that hold the catalog, served by OTMs like any other database. Stateless.
 *
 * <pre>
 *   ROOT   single partition (id {@value #ROOT_PARTITION_ID}), its location in ZooKeeper ({root}/root)
 *          PARTITIONS  one row per META partition
 *          DATABASES   NAME -> SCHEMA (the SchemaSpec JSON of every user database)
 *   META   tree-partitioned by its one table's key; the first partition has id {@value #FIRST_META_PARTITION_ID}
 *          PARTITIONS  one row per user partition
 * </pre>
 *
 * <p>A PARTITIONS row (both databases) is keyed like {@link MetaRowCodec}: (DATABASE, START_KEY,
 * PARTITION_ID), so the rows of one database are contiguous and sorted by start key; its other
 * columns are END_KEY (empty = +infinity), OWNER (null when unassigned), STATE
 * ({@link PartitionState#code()}), EPOCH, RECORD (the master's own JSON form of the partition:
 * root-key bounds as values, needed to open it) and WRITER (which master term wrote the row).
 * A database exists once its DATABASES row does: the master writes its partition rows first.
 */
public final class CatalogSchemas {

    /** The database whose one partition holds the rows of the META partitions and the schemas. */
    public static final String ROOT_DATABASE = "ROOT";
    /** The database whose partitions hold the rows of the user partitions. */
    public static final String META_DATABASE = MetaRowCodec.META_DATABASE;
    /** The ROOT partition's id. */
    public static final long ROOT_PARTITION_ID = 1;
    /** The first META partition's id (user partitions take ids above the catalog's). */
    public static final long FIRST_META_PARTITION_ID = 2;

    public static final String PARTITIONS = "PARTITIONS";
    public static final String DATABASES = "DATABASES";

    public static final String DATABASE = "DATABASE";
    public static final String START_KEY = "START_KEY";
    public static final String PARTITION_ID = "PARTITION_ID";
    public static final String END_KEY = "END_KEY";
    public static final String OWNER = "OWNER";
    public static final String STATE = "STATE";
    public static final String EPOCH = "EPOCH";
    public static final String RECORD = "RECORD";
    public static final String WRITER = "WRITER";
    public static final String NAME = "NAME";
    public static final String SCHEMA = "SCHEMA";

    /**
     * Longest encoded start or end key of a catalog row. The row key must fit the 4 KiB worst-case key
     * limit with the database name and the id beside it (a BYTES column can double when escaped), so
     * a user partition's boundary encodes to at most this many bytes; the master refuses longer ones.
     */
    public static final int BOUNDARY_BYTES_MAX = 1_800;
    /** Longest schema JSON a DATABASES row holds, in characters. */
    public static final int SCHEMA_CHARS_MAX = SchemaLimits.VARCHAR_LENGTH_MAX;
    /** Longest RECORD JSON, in characters. */
    public static final int RECORD_CHARS_MAX = 16_384;

    private static final Set<String> RESERVED = Set.of(ROOT_DATABASE, META_DATABASE);

    private static final DatabaseSchema ROOT = DatabaseSchema.singlePartition(ROOT_DATABASE)
            .plain(PARTITIONS, CatalogSchemas::partitionsTable)
            .plain(DATABASES, t -> t
                    .column(NAME, ColumnType.varchar(SchemaLimits.NAME_LENGTH_MAX))
                    .column(SCHEMA, ColumnType.varchar(SCHEMA_CHARS_MAX))
                    .key(NAME))
            .build();

    private static final DatabaseSchema META = DatabaseSchema.tree(META_DATABASE)
            .root(PARTITIONS, CatalogSchemas::partitionsTable)
            .build();

    private static final KeyCodec META_KEY = KeyCodec.forPartitionKey(META);

    private CatalogSchemas() {
    }

    private static void partitionsTable(org.elastras.catalog.schema.TableSchema.Builder t) {
        t.column(DATABASE, ColumnType.varchar(SchemaLimits.NAME_LENGTH_MAX))
                .column(START_KEY, ColumnType.bytes(BOUNDARY_BYTES_MAX))
                .column(PARTITION_ID, ColumnType.BIGINT)
                .column(END_KEY, ColumnType.bytes(BOUNDARY_BYTES_MAX))
                .nullable(OWNER, ColumnType.varchar(ZkPaths.SEGMENT_LENGTH_MAX))
                .column(STATE, ColumnType.INT)
                .column(EPOCH, ColumnType.BIGINT)
                .nullable(RECORD, ColumnType.varchar(RECORD_CHARS_MAX))
                .nullable(WRITER, ColumnType.varchar(SchemaLimits.NAME_LENGTH_MAX + ZkPaths.SEGMENT_LENGTH_MAX))
                .key(DATABASE, START_KEY, PARTITION_ID);
    }

    /** The ROOT database's schema. */
    public static DatabaseSchema root() {
        return ROOT;
    }

    /** The META database's schema. */
    public static DatabaseSchema meta() {
        return META;
    }

    /** Whether {@code database} (any case) names a catalog database, which users may not create. */
    public static boolean reserved(String database) {
        return database != null && RESERVED.contains(Names.canonical(database));
    }

    /**
     * The catalog level of a database's partitions: 0 for ROOT (its record is in ZooKeeper), 1 for
     * META (records in ROOT), 2 for user databases (records in META).
     */
    public static int level(String database) {
        String name = Names.canonical(database);
        if (name.equals(ROOT_DATABASE)) {
            return 0;
        }
        return name.equals(META_DATABASE) ? 1 : 2;
    }

    /**
     * The range of META partition keys (encoded META root keys) that the rows of {@code database}
     * occupy: a META partition whose range overlaps it may hold some of them.
     */
    public static KeyRange metaRangeOf(String database) {
        byte[] prefix = META_KEY.encodePrefix(List.of(Names.canonical(database)));
        return new KeyRange(prefix, KeyBytes.prefixEnd(prefix));
    }

    /** The encoded META root key of a catalog row: where among the META partitions it lives. */
    public static byte[] metaKeyOf(MetaRow row) {
        return MetaRowCodec.encodeKey(row);
    }
}
