package org.elastras.client.protocol;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * The catalog write that ends a live move, handed by the master to the origin (see
 * {@link ClosePartitionRequest#handOver()}) and by the origin to the destination with its last
 * versions (see {@link FinishIncomingRequest#handOver()}): once nothing commits at the origin any
 * more, the destination calls the catalog's compare-and-set procedure ({@code PartitionRowSwap}) on
 * the catalog partition that holds the moved partition's record while it logs those versions, and
 * if the row swapped, serves the partition at once. The master's own catalog write and open would
 * otherwise follow the close's answer, with the partition served nowhere meanwhile. Immutable.
 *
 * @param host where the OTM serving the catalog partition that holds the record listens
 * @param port its protocol port
 * @param database that catalog partition's database
 * @param partitionId that catalog partition
 * @param swapArgs the compare-and-set's arguments: the versions the row may hold, the new row
 */
public record CatalogHandOver(String host, int port, String database, long partitionId,
        @JsonSerialize(typing = JsonSerialize.Typing.STATIC) List<Object> swapArgs) {

    public CatalogHandOver {
        Fields.requireName("closePartition", "handOver.host", host, ProtocolLimits.NAME_LENGTH_MAX);
        if (port <= 0 || port > 65_535) {
            throw Fields.malformed("closePartition", "handOver.port must be in [1, 65535], got " + port);
        }
        Fields.requireName("closePartition", "handOver.database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("closePartition", partitionId);
        swapArgs = Fields.args("closePartition", "handOver.swapArgs", swapArgs);
        if (swapArgs.isEmpty()) {
            throw Fields.malformed("closePartition", "handOver.swapArgs is empty");
        }
    }
}
