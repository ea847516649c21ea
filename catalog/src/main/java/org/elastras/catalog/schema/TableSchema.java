package org.elastras.catalog.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A table: its name, kind, columns in order and primary key. Immutable; checked when constructed.
 *
 * <p>Rules checked here: valid names, unique column names ignoring case, 1 to
 * {@link SchemaLimits#COLUMNS_PER_TABLE_MAX} columns, a primary key of 1 to
 * {@link SchemaLimits#KEY_COLUMNS_MAX} distinct, existing, NOT NULL columns whose worst-case encoded
 * size is at most {@link SchemaLimits#KEY_BYTES_MAX}. The rules that relate tables to each other
 * (one root, children start with the root key) are checked by {@link DatabaseSchema}.
 *
 * @param name the table name
 * @param kind the table's role in partitioning
 * @param columns the columns, in row order
 * @param primaryKey the names of the primary key columns, in key order, spelled as the columns declare them
 */
public record TableSchema(String name, TableKind kind, List<Column> columns, List<String> primaryKey) {

    public TableSchema {
        Names.check("table name", name);
        if (kind == null) {
            throw new SchemaException("table " + name + " has no kind; declare it ROOT, CHILD, GLOBAL or PLAIN");
        }
        if (columns == null || columns.isEmpty()) {
            throw new SchemaException("table " + name + " has no columns; declare at least its key columns");
        }
        if (columns.size() > SchemaLimits.COLUMNS_PER_TABLE_MAX) {
            throw new SchemaException("table " + name + " has " + columns.size() + " columns; the limit is "
                    + SchemaLimits.COLUMNS_PER_TABLE_MAX + " (split it into two tables)");
        }
        columns = List.copyOf(columns);
        Set<String> seen = new HashSet<>();
        for (Column c : columns) {
            if (!seen.add(Names.canonical(c.name()))) {
                throw new SchemaException("table " + name + " declares column " + c.name()
                        + " twice (names are compared ignoring case); rename one of them");
            }
        }
        primaryKey = checkKey(name, columns, primaryKey);
    }

    private static List<String> checkKey(String table, List<Column> columns, List<String> key) {
        if (key == null || key.isEmpty()) {
            throw new SchemaException("table " + table + " has an empty primary key; name at least one NOT NULL column as its key");
        }
        if (key.size() > SchemaLimits.KEY_COLUMNS_MAX) {
            throw new SchemaException("table " + table + " has " + key.size() + " primary key columns; the limit is "
                    + SchemaLimits.KEY_COLUMNS_MAX);
        }
        List<String> declared = new ArrayList<>(key.size());
        Set<String> seen = new HashSet<>();
        int keyBytesMax = 0;
        for (String k : key) {
            Column c = find(columns, k);
            if (c == null) {
                throw new SchemaException("table " + table + " primary key names unknown column " + k
                        + "; the columns are " + names(columns));
            }
            if (!seen.add(Names.canonical(c.name()))) {
                throw new SchemaException("table " + table + " primary key names column " + c.name() + " twice; name it once");
            }
            if (c.nullable()) {
                throw new SchemaException("table " + table + " primary key column " + c.name()
                        + " is nullable; declare it NOT NULL");
            }
            keyBytesMax += c.type().keyBytesMax();
            declared.add(c.name());
        }
        if (keyBytesMax > SchemaLimits.KEY_BYTES_MAX) {
            throw new SchemaException("table " + table + " primary key can encode to " + keyBytesMax
                    + " bytes, more than the limit of " + SchemaLimits.KEY_BYTES_MAX
                    + "; shorten its VARCHAR/BYTES key columns");
        }
        return List.copyOf(declared);
    }

    private static Column find(List<Column> columns, String name) {
        if (name == null) {
            return null;
        }
        for (Column c : columns) {
            if (Names.same(c.name(), name)) {
                return c;
            }
        }
        return null;
    }

    private static List<String> names(List<Column> columns) {
        return columns.stream().map(Column::name).toList();
    }

    /** Starts a table of the given kind. */
    public static Builder builder(String name, TableKind kind) {
        return new Builder(name, kind);
    }

    /** The position of the column named {@code columnName} (ignoring case), or -1. */
    public int columnIndex(String columnName) {
        // Callers mostly spell names as declared: an exact match first is a few compares of
        // lengths and bytes, where ignoring case compares char by char in upper and lower case.
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(columnName)) {
                return i;
            }
        }
        for (int i = 0; i < columns.size(); i++) {
            if (Names.same(columns.get(i).name(), columnName)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The column named {@code columnName} (ignoring case).
     *
     * @throws IllegalArgumentException if there is none
     */
    public Column column(String columnName) {
        int i = columnIndex(columnName);
        if (i < 0) {
            throw new IllegalArgumentException("table " + name + " has no column " + columnName
                    + "; the columns are " + names(columns));
        }
        return columns.get(i);
    }

    /** The primary key columns, in key order. */
    public List<Column> keyColumns() {
        return primaryKey.stream().map(this::column).toList();
    }

    /** The positions in {@link #columns()} of the primary key columns, in key order. */
    public int[] keyColumnIndexes() {
        return primaryKey.stream().mapToInt(this::columnIndex).toArray();
    }

    /** Whether the column at {@code index} is part of the primary key. */
    public boolean isKeyColumn(int index) {
        String n = columns.get(index).name();
        return primaryKey.contains(n);
    }

    @Override
    public String toString() {
        return kind + " TABLE " + name + " " + columns + " PRIMARY KEY " + primaryKey;
    }

    /**
     * Collects a table's columns and key. Not thread-safe; use from one thread, then discard.
     */
    public static final class Builder {
        private final String name;
        private final TableKind kind;
        private final List<Column> columns = new ArrayList<>();
        private List<String> primaryKey = List.of();

        private Builder(String name, TableKind kind) {
            Names.check("table name", name);
            this.name = name;
            this.kind = kind;
        }

        /** Adds a NOT NULL column. */
        public Builder column(String columnName, ColumnType type) {
            columns.add(Column.notNull(columnName, type));
            return this;
        }

        /** Adds a column that admits NULL. */
        public Builder nullable(String columnName, ColumnType type) {
            columns.add(Column.nullable(columnName, type));
            return this;
        }

        /** Sets the primary key columns, in key order. */
        public Builder key(String... columnNames) {
            primaryKey = Arrays.asList(columnNames.clone());
            return this;
        }

        /** The table; checks every rule. */
        public TableSchema build() {
            return new TableSchema(name, kind, columns, primaryKey);
        }
    }
}
