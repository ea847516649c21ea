package org.elastras.client.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * Admin, to the active master: creates a database ({@code POST /v1/createDatabase}). A
 * tree-partitioned database is split at the given root keys into {@code boundaries + 1} partitions
 * ({@code [-inf, b0), [b0, b1), ..., [bn, +inf)}); a single-partition database (a tenant) takes no
 * boundaries. Returns once the partitions are recorded and assigned, not once they serve. Immutable.
 *
 * @param schema the database's schema
 * @param rootKeyBoundaries root keys (each a list of root-key values), strictly ascending; null or
 *     empty for a tenant or a one-partition tree database
 */
public record CreateDatabaseRequest(SchemaSpec schema, List<List<Object>> rootKeyBoundaries) {

    /** Most initial partitions of one database. */
    public static final int BOUNDARIES_MAX = 10_000;

    public CreateDatabaseRequest {
        if (schema == null) {
            throw Fields.malformed("createDatabase", "schema is missing; give {name, partitioning, tables}");
        }
        if (rootKeyBoundaries == null) {
            rootKeyBoundaries = List.of();
        }
        if (rootKeyBoundaries.size() > BOUNDARIES_MAX) {
            throw Fields.malformed("createDatabase", rootKeyBoundaries.size() + " boundaries; at most " + BOUNDARIES_MAX);
        }
        List<List<Object>> copy = new ArrayList<>(rootKeyBoundaries.size());
        for (List<Object> boundary : rootKeyBoundaries) {
            copy.add(Fields.values("createDatabase", "rootKeyBoundaries[]", boundary, true, ProtocolLimits.KEY_VALUES_MAX));
        }
        rootKeyBoundaries = List.copyOf(copy);
    }
}
