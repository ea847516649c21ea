package org.elastras.client.protocol;

import java.util.List;

/**
 * The answer to {@link StatusRequest}. Immutable.
 *
 * @param otmId the OTM's identifier
 * @param serving whether it holds its lease and serves requests
 * @param partitions the partitions it serves (or is opening or closing)
 */
public record StatusResponse(String otmId, boolean serving, List<PartitionStatus> partitions) {

    public StatusResponse {
        Fields.requireName("status response", "otmId", otmId, ProtocolLimits.NAME_LENGTH_MAX);
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
    }
}
