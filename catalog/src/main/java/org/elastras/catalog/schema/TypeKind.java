package org.elastras.catalog.schema;

/**
 * The kinds of column type the catalog knows; {@link ColumnType} adds the parameters (length,
 * precision, scale). Immutable.
 *
 * <p>The persisted code of each kind is {@link #code()}, never the ordinal, so the order of the
 * constants may change without changing any stored schema.
 */
public enum TypeKind {
    /** true/false; Java {@code Boolean}. */
    BOOLEAN(1),
    /** 32-bit signed integer; Java {@code Integer}. */
    INT(2),
    /** 64-bit signed integer; Java {@code Long}. */
    BIGINT(3),
    /** IEEE 754 double; Java {@code Double}; ordered as {@link Double#compare}. */
    DOUBLE(4),
    /** Fixed-point decimal with a declared precision and scale, held as a scaled long; Java {@code BigDecimal}. */
    DECIMAL(5),
    /** Unicode text of at most a declared number of code points; Java {@code String}. */
    VARCHAR(6),
    /** Opaque bytes of at most a declared length; Java {@code byte[]}. */
    BYTES(7),
    /** Microseconds since 1970-01-01T00:00:00Z, signed; Java {@code Long}. */
    TIMESTAMP(8);

    private final int code;

    TypeKind(int code) {
        this.code = code;
    }

    /** The stable code of this kind, for any persisted form of a schema. */
    public int code() {
        return code;
    }
}
