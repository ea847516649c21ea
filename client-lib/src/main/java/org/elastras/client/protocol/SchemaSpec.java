package org.elastras.client.protocol;

import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.catalog.schema.SchemaException;
import org.elastras.catalog.schema.SchemaLimits;
import org.elastras.catalog.schema.TableSchema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The wire form of a catalog {@link DatabaseSchema}, as {@code registerDatabase} carries it.
 * Immutable; always valid: the constructor converts it to the catalog model once, so an invalid
 * spec never exists and a decoded request with one is answered {@link ErrorCode#MALFORMED_REQUEST}
 * with the catalog's message.
 *
 * @param name the database name
 * @param partitioning SINGLE_PARTITION or TREE
 * @param tables the tables, in declaration order
 */
public record SchemaSpec(String name, PartitioningKind partitioning, List<TableSpec> tables) {

    public SchemaSpec {
        if (tables != null && tables.size() > SchemaLimits.TABLES_PER_DATABASE_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "schema of database " + name + " has "
                    + tables.size() + " tables; the limit is " + SchemaLimits.TABLES_PER_DATABASE_MAX);
        }
        tables = tables == null ? null : Collections.unmodifiableList(new ArrayList<>(tables));
        try {
            build(name, partitioning, tables);
        } catch (SchemaException e) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "invalid schema: " + e.getMessage(), e);
        }
    }

    /** The spec of a catalog database. */
    public static SchemaSpec of(DatabaseSchema schema) {
        return new SchemaSpec(schema.name(), schema.partitioning(),
                schema.tables().stream().map(TableSpec::of).toList());
    }

    /** The catalog database this spec describes. */
    public DatabaseSchema toSchema() {
        return build(name, partitioning, tables);
    }

    private static DatabaseSchema build(String name, PartitioningKind partitioning, List<TableSpec> tables) {
        if (tables == null) {
            throw new SchemaException("database " + name + " has no tables; declare at least one");
        }
        List<TableSchema> built = new ArrayList<>(tables.size());
        for (TableSpec t : tables) {
            if (t == null) {
                throw new SchemaException("database " + name + " has a null table; remove it");
            }
            built.add(t.toTable());
        }
        return new DatabaseSchema(name, partitioning, built);
    }
}
