package org.elastras.master.cluster;

import java.util.Objects;

/** An input to {@link ClusterState}: something the master observed or an answer to one of its decisions. */
public sealed interface ClusterEvent {

    /** An OTM registered (its znode appeared) and listens at {@code host:port}. */
    record OtmJoined(String otmId, String host, int port) implements ClusterEvent {
        public OtmJoined {
            Objects.requireNonNull(otmId, "otmId");
            Objects.requireNonNull(host, "host");
            if (port <= 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be in [1, 65535], got " + port);
            }
        }
    }

    /** An OTM is gone: its znode disappeared (session expired or closed). */
    record OtmLost(String otmId) implements ClusterEvent {
        public OtmLost {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /** A partition is known: newly created, or read back from ZooKeeper by a new master. */
    record PartitionRegistered(PartitionRecord record) implements ClusterEvent {
        public PartitionRegistered {
            Objects.requireNonNull(record, "record");
        }
    }

    /** The fence of an OTM is done: its registration is gone and its log can take no more appends. */
    record FenceDone(String otmId) implements ClusterEvent {
        public FenceDone {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /** The fence of an OTM failed; it is retried after a backoff. */
    record FenceFailed(String otmId, String reason) implements ClusterEvent {
        public FenceFailed {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /** The OTM confirmed that it serves the partition (the open of that epoch). */
    record OpenDone(long partitionId, String otmId, long epoch) implements ClusterEvent {
        public OpenDone {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /**
     * The open of that epoch failed (refused, timed out, or its record could not be written).
     * {@code catalogUnavailable}: it failed because the catalog partition that holds its record
     * could not be reached (it is being recovered); such failures do not count towards parking.
     */
    record OpenFailed(long partitionId, String otmId, long epoch, String reason, boolean catalogUnavailable)
            implements ClusterEvent {
        public OpenFailed {
            Objects.requireNonNull(otmId, "otmId");
        }

        /** A failure of the open itself (it counts towards parking). */
        public OpenFailed(long partitionId, String otmId, long epoch, String reason) {
            this(partitionId, otmId, epoch, reason, false);
        }
    }

    /**
     * The open of that epoch found, in its catalog write, the record a live move's origin wrote
     * after handing the partition over to {@code toOtm}: the partition belongs there (that OTM
     * holds its complete copy, or serves it, and its log may hold its last commits), not at
     * {@code otmId}. The open did not happen.
     */
    record HandOverFound(long partitionId, String otmId, long epoch, String toOtm) implements ClusterEvent {
        public HandOverFound {
            Objects.requireNonNull(otmId, "otmId");
            Objects.requireNonNull(toOtm, "toOtm");
        }
    }

    /**
     * Move a serving partition to the live OTM {@code toOtm} (an operator, a drain or the balancer
     * asks; {@code reason} says which). {@code live}: a live move (copied while it serves), false a
     * coordinated one (closed, then opened); null: as {@link ClusterLimits#liveMoves()} says.
     */
    record MoveRequested(long partitionId, String toOtm, String reason, Boolean live) implements ClusterEvent {
        public MoveRequested {
            Objects.requireNonNull(toOtm, "toOtm");
            Objects.requireNonNull(reason, "reason");
        }

        /** A move of the default kind. */
        public MoveRequested(long partitionId, String toOtm, String reason) {
            this(partitionId, toOtm, reason, null);
        }
    }

    /** The owner closed the partition (the close of that epoch): it is flushed and serves nowhere. */
    record CloseDone(long partitionId, String otmId, long epoch) implements ClusterEvent {
        public CloseDone {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /** The close of that epoch failed or its answer was lost: the partition may or may not be closed. */
    record CloseFailed(long partitionId, String otmId, long epoch, String reason) implements ClusterEvent {
        public CloseFailed {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /** Drain an OTM ({@code draining} true: nothing new is assigned to it; false: it may get partitions again). */
    record DrainRequested(String otmId, boolean draining) implements ClusterEvent {
        public DrainRequested {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /** Time passes: retries that are due go out. */
    record Tick(long nowMs) implements ClusterEvent {
    }
}
