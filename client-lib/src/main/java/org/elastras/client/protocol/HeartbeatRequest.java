package org.elastras.client.protocol;

/**
 * What an OTM sends the active master once per heartbeat period ({@code POST /v1/heartbeat} on
 * the master): that it is alive, its timestamp report, and now and then its load. Immutable.
 *
 * <p>Reports are applied at most once: the master remembers, per OTM, the sequence number of the
 * last report it applied and its reply, and answers a repeat of that sequence number with the same
 * reply without applying it again. An OTM whose exchange failed (timeout, lost connection) sends
 * the very same request again, so a report lost on the way back is never applied twice.
 *
 * @param otmId the sender
 * @param run the sender's run of that id: the wal id it registered in ZooKeeper ({@code "run"} in
 *     its registration); the master exchanges only with the run it saw register, so a restarted
 *     OTM keeps its id while a zombie of an earlier run gets nothing
 * @param sequence the report's number, increasing per OTM process from 1; a retry repeats it
 * @param timestamps the timestamp report (see {@link TimestampReport})
 * @param load the OTM's load, or null in the periods that carry none (it is sent about once a second)
 */
public record HeartbeatRequest(String otmId, String run, long sequence, TimestampReport timestamps, OtmLoad load) {

    public HeartbeatRequest {
        Fields.requireName("heartbeat", "otmId", otmId, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireName("heartbeat", "run", run, ProtocolLimits.NAME_LENGTH_MAX);
        if (sequence < 1) {
            throw Fields.malformed("heartbeat", "sequence must be >= 1, got " + sequence);
        }
        if (timestamps == null) {
            throw Fields.malformed("heartbeat", "timestamps (the timestamp report) is required");
        }
    }
}
