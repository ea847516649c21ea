package org.elastras.master.cluster;

/**
 * An OTM as the admin API shows it: where it listens and whether the master counts it live.
 * Immutable.
 *
 * @param otmId the OTM's id
 * @param host its address, null if this master never saw its registration
 * @param port its port, 0 if unknown
 * @param live registered and not declared failed
 * @param recovering declared failed and its partitions not yet serving elsewhere
 * @param msSinceHeartbeat since its last accepted heartbeat (the master's clock), -1 if none
 * @param run the live run of the id ({@code <id>@<start time>}, its log's name), null when not live
 */
public record OtmView(String otmId, String host, int port, boolean live, boolean recovering, long msSinceHeartbeat,
        String run) {
}
