package org.elastras.client.protocol;

import org.elastras.catalog.schema.SchemaException;
import org.elastras.catalog.schema.TableKind;
import org.elastras.catalog.schema.TableSchema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The wire form of a catalog {@link TableSchema}. Immutable.
 *
 * @param name the table name
 * @param kind ROOT, CHILD, GLOBAL or PLAIN
 * @param columns the columns, in row order
 * @param primaryKey the names of the primary key columns, in key order
 */
public record TableSpec(String name, TableKind kind, List<ColumnSpec> columns, List<String> primaryKey) {

    public TableSpec {
        columns = columns == null ? null : Collections.unmodifiableList(new ArrayList<>(columns));
        primaryKey = primaryKey == null ? null : Collections.unmodifiableList(new ArrayList<>(primaryKey));
    }

    /** The spec of a catalog table. */
    public static TableSpec of(TableSchema table) {
        return new TableSpec(table.name(), table.kind(), table.columns().stream().map(ColumnSpec::of).toList(),
                table.primaryKey());
    }

    /**
     * The catalog table this spec describes.
     *
     * @throws SchemaException if it breaks a rule of the catalog, saying which
     */
    public TableSchema toTable() {
        if (columns == null) {
            throw new SchemaException("table " + name + " has no columns; declare at least its key columns");
        }
        List<org.elastras.catalog.schema.Column> cols = new ArrayList<>(columns.size());
        for (ColumnSpec c : columns) {
            if (c == null) {
                throw new SchemaException("table " + name + " has a null column; remove it");
            }
            cols.add(c.toColumn());
        }
        return new TableSchema(name, kind, cols, primaryKey);
    }
}
