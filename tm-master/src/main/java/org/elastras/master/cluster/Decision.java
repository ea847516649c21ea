package org.elastras.master.cluster;

import java.util.Objects;

/** An output of {@link ClusterState}: what the master's IO must do next, or report. */
public sealed interface Decision {

    /**
     * End an OTM for good: delete its registration if it still exists (so it can never serve
     * again under that session), then fence its log on the DFS. Answer with
     * {@link ClusterEvent.FenceDone} or {@link ClusterEvent.FenceFailed}. Must be idempotent.
     */
    record FenceOtm(String otmId) implements Decision {
        public FenceOtm {
            Objects.requireNonNull(otmId, "otmId");
        }
    }

    /**
     * Persist {@code assignment} (owner and epoch) first, then register the database's schema on the
     * owner and open the partition there. Answer with {@link ClusterEvent.OpenDone} or
     * {@link ClusterEvent.OpenFailed} for this epoch, always (the in-flight bound counts on it).
     */
    record OpenPartition(PartitionRecord assignment, String host, int port) implements Decision {
        public OpenPartition {
            Objects.requireNonNull(assignment.owner(), "an open needs an owner");
        }
    }

    /**
     * A move's first step: ask the owner (of {@code record}) to close the partition: stop admitting
     * transactions on it, finish or abort those in flight, flush and close its store; or, with
     * {@code liveTo}, to copy it live to that OTM and hand it over (the destination then holds a
     * complete copy and the partition's manifest names the destination's log). Answer with
     * {@link ClusterEvent.CloseDone} or {@link ClusterEvent.CloseFailed} for this epoch, always.
     */
    record ClosePartition(PartitionRecord record, String host, int port, LiveTarget liveTo) implements Decision {
        public ClosePartition {
            Objects.requireNonNull(record.owner(), "a close needs an owner");
        }

        /** A coordinated move's close. */
        public ClosePartition(PartitionRecord record, String host, int port) {
            this(record, host, port, null);
        }
    }

    /** The destination of a live move, as the origin reaches it. */
    record LiveTarget(String otmId, String host, int port) {
        public LiveTarget {
            Objects.requireNonNull(otmId, "otmId");
            Objects.requireNonNull(host, "host");
        }
    }

    /** Report: a requested move was not started, and why (nothing changed). */
    record MoveRefused(long partitionId, String toOtm, String reason) implements Decision {
    }

    /**
     * Report: a move started: the partition closes at {@code from} (copied live to {@code to} first
     * if {@code live}), then opens at {@code to}.
     */
    record MoveStarted(long partitionId, String from, String to, String reason, boolean live) implements Decision {

        /** A coordinated move started. */
        public MoveStarted(long partitionId, String from, String to, String reason) {
            this(partitionId, from, to, reason, false);
        }
    }

    /** Report: a moved partition serves at its destination; {@code tookMs} from the move's start. */
    record MoveFinished(long partitionId, String from, String to, long tookMs) implements Decision {
    }

    /** Report: a move was given up (the partition stays at or returns to {@code owner}, or awaits a fence). */
    record MoveAbandoned(long partitionId, String owner, String reason) implements Decision {
    }

    /** Report: an OTM being drained owns no partition any more. */
    record OtmDrained(String otmId) implements Decision {
    }

    /** Report: a partition lost its owner and waits for the fence and a new owner. Nothing to persist. */
    record PartitionUnassigned(long partitionId, String formerOwner) implements Decision {
    }

    /**
     * An OTM joined and is live from now on (at once, or once the fence of a previous run of its id
     * was confirmed): the master accepts the heartbeats of the run that registered and tells it the
     * schemas it knows.
     */
    record OtmAdmitted(String otmId) implements Decision {
    }

    /** Report: a live OTM is not used (over a limit); nothing is assigned to it. */
    record OtmIgnored(String otmId, String reason) implements Decision {
    }

    /** Report: a partition gave up after every allowed open attempt failed; an operator must act. */
    record PartitionParked(long partitionId, String otmId, String lastReason) implements Decision {
    }

    /**
     * A failed OTM is recovered: its log is fenced and every partition it owned serves again on a
     * new owner, which replayed that log. The timestamp service may now count every CTS it still
     * owed as done ({@code TimestampService.otmRecovered}).
     */
    record OtmRecovered(String otmId) implements Decision {
    }
}
