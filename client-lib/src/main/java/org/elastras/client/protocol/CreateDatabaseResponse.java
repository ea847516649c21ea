package org.elastras.client.protocol;

import java.util.List;

/** The answer to {@link CreateDatabaseRequest}: the partitions created. Immutable. */
public record CreateDatabaseResponse(List<PartitionInfo> partitions) {

    public CreateDatabaseResponse {
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
    }
}
