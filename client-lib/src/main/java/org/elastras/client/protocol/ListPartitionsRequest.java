package org.elastras.client.protocol;

/**
 * Admin, to the active master: every partition with its owner and state
 * ({@code POST /v1/listPartitions}). Immutable.
 *
 * @param database only this database's partitions, or null for all
 */
public record ListPartitionsRequest(String database) {

    public ListPartitionsRequest {
        if (database != null) {
            Fields.requireName("listPartitions", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        }
    }
}
