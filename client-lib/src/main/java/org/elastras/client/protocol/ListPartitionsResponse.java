package org.elastras.client.protocol;

import java.util.List;

/** The answer to {@link ListPartitionsRequest}. Immutable. */
public record ListPartitionsResponse(List<PartitionInfo> partitions) {

    public ListPartitionsResponse {
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
    }
}
