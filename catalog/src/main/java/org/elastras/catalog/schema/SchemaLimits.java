package org.elastras.catalog.schema;

/**
 * The bounds every schema is checked against when it is built. Holds only constants.
 *
 * <p>The key bound is the worst-case encoded size of a primary key (see {@code KeyCodec}); it is
 * kept at or below the storage layer's default key limit so that no row a schema admits can be
 * refused by the store for the size of its key.
 */
public final class SchemaLimits {

    /** Longest database, table or column name, in characters. */
    public static final int NAME_LENGTH_MAX = 64;
    /** Most columns in one table. */
    public static final int COLUMNS_PER_TABLE_MAX = 256;
    /** Most columns in one primary key. */
    public static final int KEY_COLUMNS_MAX = 16;
    /** Most tables in one database. */
    public static final int TABLES_PER_DATABASE_MAX = 256;
    /** Largest declared VARCHAR length, in code points. */
    public static final int VARCHAR_LENGTH_MAX = 65_535;
    /** Largest declared BYTES length, in bytes. */
    public static final int BYTES_LENGTH_MAX = 1 << 20;
    /** Most decimal digits of a DECIMAL: every value then fits a scaled {@code long}. */
    public static final int DECIMAL_PRECISION_MAX = 18;
    /** Largest worst-case encoded primary key, in bytes. */
    public static final int KEY_BYTES_MAX = 4 * 1024;

    private SchemaLimits() {
    }
}
