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
    PAUSE_OTM_AND_KILL_MASTER
}
