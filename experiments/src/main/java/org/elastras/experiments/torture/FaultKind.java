package org.elastras.experiments.torture;

/** The faults a torture run injects into a {@link TortureCluster}. */
enum FaultKind {
    /** SIGKILL an OTM process (one that serves partitions if any does), then start a replacement under a new id. */
    KILL_OTM,
    /** SIGKILL the active master process; a standby takes over; start a new standby under a new id. */
    KILL_MASTER,
    /**
     * SIGSTOP an OTM for longer than the master's heartbeat timeout, so that it is declared failed
     * and its partitions reopen elsewhere, then SIGCONT it: the zombie must commit nothing. It is
     * then killed and replaced.
     */
    PAUSE_OTM,
    /**
     * Expire an OTM's ZooKeeper session on the server while the process runs on (a network
     * partition from ZooKeeper): it loses its lease and must stop committing; its partitions
     * reopen elsewhere. It is probed like a paused one, then killed and replaced.
     */
    EXPIRE_OTM_SESSION,
    /**
     * Two faults at once: SIGSTOP an OTM, SIGKILL the active master while the OTM is stopped,
     * keep the OTM stopped for the pause time after the standby took over (so the new master,
     * which never heard from it, must find it failed), then resume, probe, kill and replace it
     * and start a new standby.
     */
    PAUSE_OTM_AND_KILL_MASTER,
    /**
     * Not a failure: the master moves up to three serving partitions (the catalog's included) to
     * other OTMs, as an operator or the balancer would; the workloads go on through the moves.
     */
    MOVE_PARTITIONS,
    /**
     * A move interrupted: the master starts moving a partition and its origin OTM is SIGKILLed at
     * once, mid-move; then a replacement OTM is started under a new id.
     */
    MOVE_AND_KILL_ORIGIN;

    /** The kinds of the first releases, drawn first (in a seed's order) so old seeds keep their first faults. */
    static final java.util.List<FaultKind> FAILURES = java.util.List.of(KILL_OTM, KILL_MASTER, PAUSE_OTM,
            EXPIRE_OTM_SESSION, PAUSE_OTM_AND_KILL_MASTER);
}
