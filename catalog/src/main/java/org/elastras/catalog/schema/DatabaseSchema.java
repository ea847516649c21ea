package org.elastras.catalog.schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A database: its name, how it is partitioned and its tables. Immutable; checked when constructed.
 *
 * <p>Rules checked here, beyond those of each {@link TableSchema}: 1 to
 * {@link SchemaLimits#TABLES_PER_DATABASE_MAX} tables with names unique ignoring case. A
 * {@link PartitioningKind#SINGLE_PARTITION} database has PLAIN and GLOBAL tables only. A
 * {@link PartitioningKind#TREE} database has exactly one ROOT table, no PLAIN tables, and every
 * CHILD table's primary key starts with the root table's key columns: the same names (ignoring case)
 * and types, in the same order. That prefix is what puts a child row in the partition of its root
 * row: the encoded child key starts with the encoded root key.
 *
 * @param name the database name
 * @param partitioning how the database is partitioned
 * @param tables the tables, in declaration order
 */
public record DatabaseSchema(String name, PartitioningKind partitioning, List<TableSchema> tables) {

    public DatabaseSchema {
        Names.check("database name", name);
        if (partitioning == null) {
            throw new SchemaException("database " + name + " has no partitioning; declare it SINGLE_PARTITION or TREE");
        }
        if (tables == null || tables.isEmpty()) {
            throw new SchemaException("database " + name + " has no tables; declare at least one");
        }
        if (tables.size() > SchemaLimits.TABLES_PER_DATABASE_MAX) {
            throw new SchemaException("database " + name + " has " + tables.size() + " tables; the limit is "
                    + SchemaLimits.TABLES_PER_DATABASE_MAX);
        }
        tables = List.copyOf(tables);
        Set<String> seen = new HashSet<>();
        for (TableSchema t : tables) {
            if (!seen.add(Names.canonical(t.name()))) {
                throw new SchemaException("database " + name + " declares table " + t.name()
                        + " twice (names are compared ignoring case); rename one of them");
            }
        }
        if (partitioning == PartitioningKind.SINGLE_PARTITION) {
            checkSinglePartition(name, tables);
        } else {
            checkTree(name, tables);
        }
    }

    private static void checkSinglePartition(String database, List<TableSchema> tables) {
        for (TableSchema t : tables) {
            if (t.kind() == TableKind.ROOT || t.kind() == TableKind.CHILD) {
                throw new SchemaException("table " + t.name() + " of single-partition database " + database + " is "
                        + t.kind() + "; declare it PLAIN (or GLOBAL), or make the database TREE-partitioned");
            }
        }
    }

    private static void checkTree(String database, List<TableSchema> tables) {
        List<TableSchema> roots = tables.stream().filter(t -> t.kind() == TableKind.ROOT).toList();
        if (roots.size() != 1) {
            throw new SchemaException("tree-partitioned database " + database + " has " + roots.size()
                    + " ROOT tables " + roots.stream().map(TableSchema::name).toList()
                    + "; it needs exactly one, whose primary key is the partition key");
        }
        TableSchema root = roots.get(0);
        List<Column> rootKey = root.keyColumns();
        for (TableSchema t : tables) {
            if (t.kind() == TableKind.PLAIN) {
                throw new SchemaException("table " + t.name() + " of tree-partitioned database " + database
                        + " is PLAIN; declare it CHILD (primary key starting with " + describe(rootKey)
                        + ") or GLOBAL");
            }
            if (t.kind() == TableKind.CHILD && !startsWith(t.keyColumns(), rootKey)) {
                throw new SchemaException("CHILD table " + t.name() + " of database " + database
                        + " has primary key " + describe(t.keyColumns()) + "; its primary key must start with the key of ROOT table "
                        + root.name() + ": " + describe(rootKey) + " (same names and types, in order)");
            }
        }
    }

    private static boolean startsWith(List<Column> key, List<Column> prefix) {
        if (key.size() < prefix.size()) {
            return false;
        }
        for (int i = 0; i < prefix.size(); i++) {
            Column k = key.get(i);
            Column p = prefix.get(i);
            if (!Names.same(k.name(), p.name()) || !k.type().equals(p.type())) {
                return false;
            }
        }
        return true;
    }

    private static String describe(List<Column> key) {
        return key.stream().map(c -> c.name() + " " + c.type()).toList().toString();
    }

    /** Starts a tree-partitioned database. */
    public static Builder tree(String name) {
        return new Builder(name, PartitioningKind.TREE);
    }

    /** Starts a single-partition (tenant) database. */
    public static Builder singlePartition(String name) {
        return new Builder(name, PartitioningKind.SINGLE_PARTITION);
    }

    /** The table named {@code tableName} (ignoring case), if any. */
    public Optional<TableSchema> findTable(String tableName) {
        return tables.stream().filter(t -> Names.same(t.name(), tableName)).findFirst();
    }

    /**
     * The table named {@code tableName} (ignoring case).
     *
     * @throws IllegalArgumentException if there is none
     */
    public TableSchema table(String tableName) {
        return findTable(tableName).orElseThrow(() -> new IllegalArgumentException("database " + name
                + " has no table " + tableName + "; its tables are " + tables.stream().map(TableSchema::name).toList()));
    }

    /** The ROOT table of a tree-partitioned database; empty for a single-partition one. */
    public Optional<TableSchema> rootTable() {
        return tables.stream().filter(t -> t.kind() == TableKind.ROOT).findFirst();
    }

    /** The partition key: the ROOT table's key columns, or no columns for a single-partition database. */
    public List<Column> partitionKeyColumns() {
        return rootTable().map(TableSchema::keyColumns).orElse(List.of());
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(partitioning + " DATABASE " + name);
        for (TableSchema t : tables) {
            b.append("\n  ").append(t);
        }
        return b.toString();
    }

    /**
     * Collects a database's tables. Not thread-safe; use from one thread, then discard.
     */
    public static final class Builder {
        private final String name;
        private final PartitioningKind partitioning;
        private final List<TableSchema> tables = new ArrayList<>();

        private Builder(String name, PartitioningKind partitioning) {
            Names.check("database name", name);
            this.name = name;
            this.partitioning = partitioning;
        }

        /** Adds a table built elsewhere. */
        public Builder table(TableSchema table) {
            tables.add(table);
            return this;
        }

        /** Adds a ROOT table, described by {@code body}. */
        public Builder root(String tableName, Consumer<TableSchema.Builder> body) {
            return add(tableName, TableKind.ROOT, body);
        }

        /** Adds a CHILD table, described by {@code body}. */
        public Builder child(String tableName, Consumer<TableSchema.Builder> body) {
            return add(tableName, TableKind.CHILD, body);
        }

        /** Adds a GLOBAL table, described by {@code body}. */
        public Builder global(String tableName, Consumer<TableSchema.Builder> body) {
            return add(tableName, TableKind.GLOBAL, body);
        }

        /** Adds a PLAIN table, described by {@code body}. */
        public Builder plain(String tableName, Consumer<TableSchema.Builder> body) {
            return add(tableName, TableKind.PLAIN, body);
        }

        private Builder add(String tableName, TableKind kind, Consumer<TableSchema.Builder> body) {
            TableSchema.Builder t = TableSchema.builder(tableName, kind);
            body.accept(t);
            tables.add(t.build());
            return this;
        }

        /** The database; checks every rule. */
        public DatabaseSchema build() {
            return new DatabaseSchema(name, partitioning, tables);
        }
    }
}
