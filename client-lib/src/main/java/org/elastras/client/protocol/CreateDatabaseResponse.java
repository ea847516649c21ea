package org.elastras.client.protocol;

import java.util.List;

/**
 * The answer to {@link CreateDatabaseRequest}: the partitions created, and when the catalog holds
 * the database. Immutable.
 *
 * @param partitions the partitions created
 * @param catalogCts the highest commit timestamp of the master's catalog writes for this create
 *     (the schema row in ROOT, the partition rows in META): a catalog read that begins with it as
 *     {@code afterCts} finds the database. 0 when unknown (a master from before this field); an
 *     older body without it decodes as 0
 */
public record CreateDatabaseResponse(List<PartitionInfo> partitions, long catalogCts) {

    public CreateDatabaseResponse {
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
        Fields.requireCts("createDatabase response", "catalogCts", catalogCts);
    }

    /** An answer that does not say when the catalog holds the database (catalogCts 0). */
    public CreateDatabaseResponse(List<PartitionInfo> partitions) {
        this(partitions, 0);
    }
}
