package org.elastras.master.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.elastras.catalog.meta.CatalogSchemas;

/**
 * The active master's view of the cluster as a state machine: the input is an event (an OTM
 * joined or was lost, a partition registered, a fence or open answered, a tick with the time),
 * the output the decisions the IO around it must carry out (fence an OTM, open a partition on an
 * OTM) or report. No IO, no threads, no clock: the same events give the same decisions.
 *
 * <p>Rules:
 * <ul>
 *   <li>A lost OTM's partitions wait ({@link PartitionState#AWAITING_FENCE}) until its fence is
 *       confirmed; only then are they assigned again. A failed fence is retried with backoff, for
 *       as long as it takes: giving up would leave the partitions unserved, reassigning without
 *       it could let two OTMs commit to one partition.</li>
 *   <li>Unassigned partitions go, in partition-id order, to the live OTM with the fewest
 *       partitions ({@link AssignmentPlanner}), at most {@link ClusterLimits#opensInFlightMax()}
 *       opens unanswered at once.</li>
 *   <li>A failed open is retried on the same OTM (it may have opened the partition after all, so
 *       sending it elsewhere could make two owners) with doubling backoff, at most
 *       {@link ClusterLimits#openAttemptsMax()} attempts; then the partition is parked. If that
 *       OTM is lost meanwhile, the fence path takes over.</li>
 *   <li>Every open attempt is a new epoch; answers for an older epoch are stale and change
 *       nothing but the in-flight count.</li>
 *   <li>Catalog order: a partition's record is written into the catalog partition one level up
 *       before it opens, so META partitions open only while ROOT serves, and user partitions only
 *       while every META partition serves ({@link #levelServing}). An open that failed because
 *       that catalog partition could not be reached is retried without counting as an attempt.</li>
 * </ul>
 *
 * <p>Not thread-safe: one thread (the master's event loop) feeds it.
 */
public final class ClusterState {

    private record Address(String host, int port) {
    }

    private record OpenKey(long partitionId, long epoch) {
    }

    private static final class Fence {
        int attempts;
        boolean inFlight;
        long retryAtMs;
    }

    /**
     * A failed OTM from its loss until it is recovered: fenced, and each partition it owned serving
     * again elsewhere (so its logged commits were replayed there).
     */
    private static final class Recovery {
        boolean fenced;
        final Set<Long> awaiting = new HashSet<>();
    }

    private static final class Partition {
        PartitionRecord record;
        PartitionState state;
        /** Failed open attempts of the current assignment. */
        int attempts;
        long retryAtMs;
        String lastFailure;
        /** While CLOSING for a move: where it goes next. */
        String moveTo;
        /** While CLOSING for a move: whether it is copied live to {@link #moveTo} before the hand-over. */
        boolean live;
        /** Its last live move failed: the next move of the default kind is coordinated (the fallback). */
        boolean liveFailed;
        /**
         * A lost OTM whose fence must be confirmed before this partition opens anywhere: the
         * destination of a live move that ended after the hand-over (the partition's manifest
         * names its log) but was lost before it served.
         */
        String fenceFirst;
        /** After a move's close, until it serves at the destination: where it came from. */
        String movedFrom;
        long moveStartedMs;

        Partition(PartitionRecord record, PartitionState state) {
            this.record = record;
            this.state = state;
        }
    }

    private final ClusterLimits limits;
    /** Live OTMs by id; sorted, so planning is deterministic. */
    private final TreeMap<String, Address> otms = new TreeMap<>();
    /** Lost OTMs whose fence is not confirmed yet. */
    private final TreeMap<String, Fence> fences = new TreeMap<>();
    /** Lost OTMs not recovered yet. */
    private final TreeMap<String, Recovery> recoveries = new TreeMap<>();
    /**
     * New runs that registered under the id of a lost OTM whose fence is not confirmed yet; each
     * joins once it is (the fence must not take the new run's registration or log for the old one's).
     */
    private final TreeMap<String, ClusterEvent.OtmJoined> waitingForFence = new TreeMap<>();
    private final TreeMap<Long, Partition> partitions = new TreeMap<>();
    /** The catalog's partitions (ROOT and META), also in {@link #partitions}. */
    private final TreeMap<Long, Partition> catalog = new TreeMap<>();
    /** Live OTMs being drained: nothing is assigned or moved to them, their partitions move off. */
    private final TreeSet<String> draining = new TreeSet<>();
    /** Drained OTMs already reported as such. */
    private final Set<String> drainedReported = new HashSet<>();
    /** Opens decided and not yet answered (only membership is used, never iteration order). */
    private final Set<OpenKey> opensInFlight = new HashSet<>();
    private long nowMs;

    public ClusterState(ClusterLimits limits, long nowMs) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.nowMs = nowMs;
    }

    /** Applies one event and returns the decisions it leads to, in the order they must be carried out. */
    public List<Decision> on(ClusterEvent event) {
        List<Decision> out = new ArrayList<>();
        if (event instanceof ClusterEvent.OtmJoined e) {
            joined(e, out);
        } else if (event instanceof ClusterEvent.OtmLost e) {
            lost(e.otmId(), out);
        } else if (event instanceof ClusterEvent.PartitionRegistered e) {
            registered(e.record(), out);
        } else if (event instanceof ClusterEvent.FenceDone e) {
            fenceDone(e.otmId(), out);
        } else if (event instanceof ClusterEvent.FenceFailed e) {
            fenceFailed(e.otmId());
        } else if (event instanceof ClusterEvent.OpenDone e) {
            openDone(e, out);
        } else if (event instanceof ClusterEvent.OpenFailed e) {
            openFailed(e, out);
        } else if (event instanceof ClusterEvent.HandOverFound e) {
            handOverFound(e, out);
        } else if (event instanceof ClusterEvent.MoveRequested e) {
            moveRequested(e, out);
        } else if (event instanceof ClusterEvent.CloseDone e) {
            closeDone(e, out);
        } else if (event instanceof ClusterEvent.CloseFailed e) {
            closeFailed(e, out);
        } else if (event instanceof ClusterEvent.DrainRequested e) {
            drainRequested(e);
        } else if (event instanceof ClusterEvent.Tick e) {
            nowMs = Math.max(nowMs, e.nowMs());
            retryDueFences(out);
        } else {
            throw new IllegalArgumentException("unknown event " + event);
        }
        assign(out);
        drain(out);
        return out;
    }

    // ---------------------------------------------------------------- moves and drains

    private void moveRequested(ClusterEvent.MoveRequested e, List<Decision> out) {
        Partition p = partitions.get(e.partitionId());
        String to = e.toOtm();
        String refusal = null;
        if (p == null) {
            refusal = "there is no partition " + e.partitionId();
        } else if (p.state != PartitionState.SERVING) {
            refusal = "it is " + p.state + ", not SERVING; retry once it serves";
        } else if (to.equals(p.record.owner())) {
            refusal = "OTM " + to + " serves it already";
        } else if (!otms.containsKey(to)) {
            refusal = "OTM " + to + " is not live; the live OTMs are " + otms.keySet();
        } else if (draining.contains(to)) {
            refusal = "OTM " + to + " is being drained";
        } else if (movesInFlight() + opensInFlight.size() >= limits.opensInFlightMax()) {
            refusal = "opensInFlightMax=" + limits.opensInFlightMax() + " opens and moves are under way; retry shortly";
        }
        if (refusal != null) {
            out.add(new Decision.MoveRefused(e.partitionId(), to, refusal));
            return;
        }
        startMove(p, to, e.reason(), e.live() == null ? defaultLive(p) : e.live(), out);
    }

    /** Live if the limits say so, unless the partition's last live move failed (then coordinated, once). */
    private boolean defaultLive(Partition p) {
        return limits.liveMoves() && !p.liveFailed;
    }

    private void startMove(Partition p, String to, String reason, boolean live, List<Decision> out) {
        String from = p.record.owner();
        p.state = PartitionState.CLOSING;
        p.moveTo = to;
        p.live = live;
        p.moveStartedMs = nowMs;
        Address origin = otms.get(from);
        Address destination = otms.get(to);
        out.add(new Decision.MoveStarted(p.record.partitionId(), from, to, reason, live));
        out.add(new Decision.ClosePartition(p.record, origin.host(), origin.port(),
                live ? new Decision.LiveTarget(to, destination.host(), destination.port()) : null));
    }

    private int movesInFlight() {
        int n = 0;
        for (Partition p : partitions.values()) {
            if (p.state == PartitionState.CLOSING) {
                n++;
            }
        }
        return n;
    }

    /** The partition if the answer is for its current close, else null (a stale answer). */
    private Partition closing(long partitionId, String otmId, long epoch) {
        Partition p = partitions.get(partitionId);
        if (p == null || p.state != PartitionState.CLOSING || p.record.epoch() != epoch || !otmId.equals(p.record.owner())) {
            return null;
        }
        return p;
    }

    private void closeDone(ClusterEvent.CloseDone e, List<Decision> out) {
        Partition p = closing(e.partitionId(), e.otmId(), e.epoch());
        if (p == null) {
            return;
        }
        String from = p.record.owner();
        String to = p.moveTo;
        boolean live = p.live;
        p.moveTo = null;
        p.live = false;
        if (!otms.containsKey(to)) {
            // A coordinated close left no log to replay: any OTM may open it. A live hand-over left
            // the manifest naming the lost destination's log: it opens once that log is fenced.
            p.state = PartitionState.UNASSIGNED;
            if (live && fences.containsKey(to)) {
                p.fenceFirst = to;
            }
            out.add(new Decision.MoveAbandoned(p.record.partitionId(), from, "the destination " + to
                    + " is gone; the closed partition is assigned anew" + (p.fenceFirst != null ? " once "
                    + to + "'s log is fenced" : "")));
            return;
        }
        p.liveFailed = false;
        p.movedFrom = from;
        p.attempts = 0;
        openAt(p, to, out);
    }

    /** Assigns the partition to the live OTM {@code otmId} under the next epoch and decides that open. */
    private void openAt(Partition p, String otmId, List<Decision> out) {
        p.record = p.record.assignedTo(otmId);
        p.state = PartitionState.OPENING;
        opensInFlight.add(new OpenKey(p.record.partitionId(), p.record.epoch()));
        Address address = otms.get(otmId);
        out.add(new Decision.OpenPartition(p.record, address.host(), address.port()));
    }

    private void closeFailed(ClusterEvent.CloseFailed e, List<Decision> out) {
        Partition p = closing(e.partitionId(), e.otmId(), e.epoch());
        if (p == null) {
            return;
        }
        p.moveTo = null;
        p.liveFailed = p.live;
        p.live = false;
        // It may or may not have closed: open it again at its owner (a no-op if it still serves it;
        // else it recovers from the DFS). Never elsewhere: it may still be serving there.
        p.state = PartitionState.RETRY_WAIT;
        p.retryAtMs = nowMs;
        out.add(new Decision.MoveAbandoned(p.record.partitionId(), p.record.owner(), "the close failed: " + e.reason()
                + "; it reopens at its owner"));
    }

    private void drainRequested(ClusterEvent.DrainRequested e) {
        if (e.draining()) {
            if (otms.containsKey(e.otmId())) {
                draining.add(e.otmId());
                drainedReported.remove(e.otmId());
            }
        } else {
            draining.remove(e.otmId());
        }
    }

    /** Moves serving partitions off draining OTMs, within the bound; reports OTMs that are empty. */
    private void drain(List<Decision> out) {
        if (draining.isEmpty()) {
            return;
        }
        Loads load = targets();
        int inFlight = movesInFlight() + opensInFlight.size();
        Set<Integer> levelsMoving = levelsInMoves();
        for (String otmId : draining) {
            boolean owns = false;
            int movingOff = movesOff(otmId);
            for (Partition p : partitions.values()) {
                if (!otmId.equals(p.record.owner()) || p.state == PartitionState.UNASSIGNED
                        || p.state == PartitionState.AWAITING_FENCE) {
                    continue;
                }
                owns = true;
                if (p.state == PartitionState.SERVING && !load.isEmpty() && inFlight < limits.opensInFlightMax()
                        && movingOff < limits.drainMovesPerOtmMax() && mayMoveBeside(level(p), levelsMoving)) {
                    String to = load.place(p);
                    startMove(p, to, "draining " + otmId, defaultLive(p), out);
                    levelsMoving.add(level(p));
                    inFlight++;
                    movingOff++;
                }
            }
            if (!owns && drainedReported.add(otmId)) {
                out.add(new Decision.OtmDrained(otmId));
            }
        }
    }

    /** Moves off {@code otmId} under way: closing there, or closed there and not serving elsewhere yet. */
    private int movesOff(String otmId) {
        int n = 0;
        for (Partition p : partitions.values()) {
            if ((p.state == PartitionState.CLOSING && otmId.equals(p.record.owner())) || (otmId.equals(p.movedFrom)
                    && (p.state == PartitionState.OPENING || p.state == PartitionState.RETRY_WAIT))) {
                n++;
            }
        }
        return n;
    }

    /**
     * The catalog levels ({@link CatalogSchemas#level}) of the partitions in a move: closing at the
     * origin, or closed there and not serving at the destination yet.
     */
    private Set<Integer> levelsInMoves() {
        Set<Integer> levels = new HashSet<>();
        for (Partition p : partitions.values()) {
            if (p.state == PartitionState.CLOSING || (p.movedFrom != null
                    && (p.state == PartitionState.OPENING || p.state == PartitionState.RETRY_WAIT))) {
                levels.add(level(p));
            }
        }
        return levels;
    }

    /**
     * Whether a drain may start moving a partition of catalog level {@code level} beside moves of
     * {@code levelsMoving}: not beside a move one level up or down. A partition's move writes its
     * record one level up, so it would wait (a retry backoff and more) while that catalog
     * partition moves, and it would make a move one level down wait in turn.
     */
    private static boolean mayMoveBeside(int level, Set<Integer> levelsMoving) {
        return !levelsMoving.contains(level - 1) && !levelsMoving.contains(level + 1);
    }

    /**
     * Live OTMs that may receive partitions (not draining), each with how many partitions it has
     * or is opening: of each kind (catalog partitions, ROOT and META, apart from user partitions)
     * and in all. A partition goes where its kind is fewest ({@link AssignmentPlanner}): counted
     * together, the catalog's two partitions (little load, on the first OTMs to join) tipped the
     * spread of a database's few partitions (four went 3-1 over two OTMs).
     */
    private Loads targets() {
        Loads loads = new Loads();
        for (String otmId : otms.keySet()) {
            if (!draining.contains(otmId)) {
                loads.catalog.put(otmId, 0);
                loads.user.put(otmId, 0);
                loads.all.put(otmId, 0);
            }
        }
        for (Partition p : partitions.values()) {
            String owner = p.state == PartitionState.CLOSING ? p.moveTo : p.record.owner();
            if (p.state != PartitionState.UNASSIGNED && p.state != PartitionState.AWAITING_FENCE
                    && owner != null && loads.all.containsKey(owner)) {
                loads.add(p, owner);
            }
        }
        return loads;
    }

    /** Partitions per target OTM: of each kind and in all ({@link #targets}). */
    private static final class Loads {
        final TreeMap<String, Integer> catalog = new TreeMap<>();
        final TreeMap<String, Integer> user = new TreeMap<>();
        final TreeMap<String, Integer> all = new TreeMap<>();

        boolean isEmpty() {
            return all.isEmpty();
        }

        void add(Partition p, String otmId) {
            (isCatalog(p) ? catalog : user).merge(otmId, 1, Integer::sum);
            all.merge(otmId, 1, Integer::sum);
        }

        /** The OTM for {@code p}, counted in from now on. */
        String place(Partition p) {
            String to = AssignmentPlanner.leastLoaded(isCatalog(p) ? catalog : user, all);
            add(p, to);
            return to;
        }
    }

    private static boolean isCatalog(Partition p) {
        return level(p) < 2;
    }

    private void joined(ClusterEvent.OtmJoined e, List<Decision> out) {
        if (fences.containsKey(e.otmId())) {
            // A new run of the id (a restart) registered while the previous run's fence is under
            // way: it joins once the fence is confirmed. Its partitions' recovery goes on meanwhile,
            // and may use it from then on.
            waitingForFence.put(e.otmId(), e);
            return;
        }
        if (!otms.containsKey(e.otmId()) && otms.size() >= limits.otmsMax()) {
            out.add(new Decision.OtmIgnored(e.otmId(), "there are otmsMax=" + limits.otmsMax()
                    + " live OTMs already; raise the limit to use more"));
            return;
        }
        otms.put(e.otmId(), new Address(e.host(), e.port()));
        out.add(new Decision.OtmAdmitted(e.otmId()));
    }

    private void lost(String otmId, List<Decision> out) {
        waitingForFence.remove(otmId); // A run waiting to join left before it could.
        if (otms.remove(otmId) == null) {
            return; // Unknown or already lost.
        }
        draining.remove(otmId);
        drainedReported.remove(otmId);
        startFence(otmId, out);
    }

    private void startFence(String otmId, List<Decision> out) {
        Fence fence = new Fence();
        fences.put(otmId, fence);
        Recovery recovery = recoveries.computeIfAbsent(otmId, id -> new Recovery());
        recovery.fenced = false; // A later run of an id still being recovered failed too: its log needs the fence.
        for (Partition p : partitions.values()) {
            if (otmId.equals(p.record.owner()) && p.state != PartitionState.UNASSIGNED) {
                if (p.moveTo != null || p.movedFrom != null) {
                    out.add(new Decision.MoveAbandoned(p.record.partitionId(), otmId, "its owner " + otmId + " failed"));
                    p.moveTo = null;
                    p.movedFrom = null;
                    p.live = false;
                }
                p.state = PartitionState.AWAITING_FENCE;
                p.attempts = 0;
                recovery.awaiting.add(p.record.partitionId());
                out.add(new Decision.PartitionUnassigned(p.record.partitionId(), otmId));
            }
        }
        sendFence(otmId, fence, out);
    }

    /** Reports {@code otmId} recovered once it is fenced and none of its partitions awaits a new owner. */
    private void checkRecovered(String otmId, List<Decision> out) {
        Recovery r = recoveries.get(otmId);
        if (r != null && r.fenced && r.awaiting.isEmpty()) {
            recoveries.remove(otmId);
            out.add(new Decision.OtmRecovered(otmId));
        }
    }

    private void sendFence(String otmId, Fence fence, List<Decision> out) {
        fence.inFlight = true;
        fence.attempts++;
        out.add(new Decision.FenceOtm(otmId));
    }

    private void fenceDone(String otmId, List<Decision> out) {
        if (fences.remove(otmId) == null) {
            return;
        }
        for (Partition p : partitions.values()) {
            if (p.state == PartitionState.AWAITING_FENCE && otmId.equals(p.record.owner())) {
                p.state = PartitionState.UNASSIGNED;
            }
        }
        Recovery r = recoveries.get(otmId);
        if (r != null) {
            r.fenced = true;
            checkRecovered(otmId, out);
        }
        ClusterEvent.OtmJoined waiting = waitingForFence.remove(otmId);
        if (waiting != null) {
            joined(waiting, out);
        }
    }

    private void fenceFailed(String otmId) {
        Fence fence = fences.get(otmId);
        if (fence == null || !fence.inFlight) {
            return;
        }
        fence.inFlight = false;
        fence.retryAtMs = nowMs + limits.backoffMs(fence.attempts);
    }

    private void retryDueFences(List<Decision> out) {
        for (Map.Entry<String, Fence> e : fences.entrySet()) {
            Fence fence = e.getValue();
            if (!fence.inFlight && fence.retryAtMs <= nowMs) {
                sendFence(e.getKey(), fence, out);
            }
        }
    }

    private void registered(PartitionRecord record, List<Decision> out) {
        Partition existing = partitions.get(record.partitionId());
        if (existing != null) {
            if (!existing.record.database().equals(record.database())) {
                throw new IllegalStateException("partition id " + record.partitionId() + " registered for "
                        + record.database() + " but it belongs to " + existing.record.database());
            }
            return;
        }
        if (partitions.size() >= limits.partitionsMax()) {
            throw new IllegalStateException("more than partitionsMax=" + limits.partitionsMax() + " partitions");
        }
        String owner = record.owner();
        Partition p;
        if (owner == null) {
            p = new Partition(record, PartitionState.UNASSIGNED);
        } else if (otms.containsKey(owner)) {
            // Read back by a new master: the owner may or may not have opened it (the record is
            // written before the open is sent). Opening again is a no-op if it did.
            p = new Partition(record, PartitionState.RETRY_WAIT);
            p.retryAtMs = nowMs;
        } else {
            p = new Partition(record, PartitionState.AWAITING_FENCE);
        }
        partitions.put(record.partitionId(), p);
        if (isCatalog(p)) {
            catalog.put(record.partitionId(), p);
        }
        if (p.state == PartitionState.AWAITING_FENCE) {
            if (!fences.containsKey(owner)) {
                // Its owner is not live: it failed while no master watched (or before this one
                // rebuilt). Fence it before anyone else opens the partition.
                startFence(owner, out);
            } else {
                recoveries.computeIfAbsent(owner, id -> new Recovery()).awaiting.add(record.partitionId());
            }
        }
    }

    private void openDone(ClusterEvent.OpenDone e, List<Decision> out) {
        opensInFlight.remove(new OpenKey(e.partitionId(), e.epoch()));
        Partition p = current(e.partitionId(), e.otmId(), e.epoch());
        if (p != null) {
            p.state = PartitionState.SERVING;
            p.attempts = 0;
            p.lastFailure = null;
            if (p.movedFrom != null) {
                out.add(new Decision.MoveFinished(e.partitionId(), p.movedFrom, e.otmId(), nowMs - p.moveStartedMs));
                p.movedFrom = null;
            }
            for (Map.Entry<String, Recovery> r : List.copyOf(recoveries.entrySet())) {
                if (r.getValue().awaiting.remove(e.partitionId())) {
                    checkRecovered(r.getKey(), out);
                }
            }
        }
    }

    private void openFailed(ClusterEvent.OpenFailed e, List<Decision> out) {
        opensInFlight.remove(new OpenKey(e.partitionId(), e.epoch()));
        Partition p = current(e.partitionId(), e.otmId(), e.epoch());
        if (p == null) {
            return;
        }
        p.lastFailure = e.reason();
        if (e.catalogUnavailable()) {
            // Nothing was tried on the OTM: wait for the catalog partition, at the shortest backoff.
            p.state = PartitionState.RETRY_WAIT;
            p.retryAtMs = nowMs + limits.backoffMs(1);
            return;
        }
        p.attempts++;
        if (p.attempts >= limits.openAttemptsMax()) {
            p.state = PartitionState.PARKED;
            out.add(new Decision.PartitionParked(e.partitionId(), e.otmId(), e.reason()));
        } else {
            p.state = PartitionState.RETRY_WAIT;
            p.retryAtMs = nowMs + limits.backoffMs(p.attempts);
        }
    }

    /** The partition if the answer is for its current open, else null (a stale answer). */
    private void handOverFound(ClusterEvent.HandOverFound e, List<Decision> out) {
        opensInFlight.remove(new OpenKey(e.partitionId(), e.epoch()));
        Partition p = current(e.partitionId(), e.otmId(), e.epoch());
        if (p == null) {
            return;
        }
        p.attempts = 0;
        p.lastFailure = null;
        String to = e.toOtm();
        if (!otms.containsKey(to)) {
            // Its log may hold the partition's last commits: it opens elsewhere once that log is fenced.
            p.state = PartitionState.UNASSIGNED;
            if (fences.containsKey(to)) {
                p.fenceFirst = to;
            }
            return;
        }
        openAt(p, to, out);
    }

    private Partition current(long partitionId, String otmId, long epoch) {
        Partition p = partitions.get(partitionId);
        if (p == null || p.state != PartitionState.OPENING || p.record.epoch() != epoch
                || !otmId.equals(p.record.owner())) {
            return null;
        }
        return p;
    }

    private void assign(List<Decision> out) {
        int moves = movesInFlight();
        if (otms.isEmpty() || opensInFlight.size() + moves >= limits.opensInFlightMax()) {
            return;
        }
        Loads load = targets();
        if (load.isEmpty()) {
            return; // Every live OTM is being drained.
        }
        boolean[] levelReady = {true, ready(1), ready(2)};
        for (Partition p : partitions.values()) {
            if (opensInFlight.size() + moves >= limits.opensInFlightMax()) {
                return;
            }
            if (!levelReady[level(p)]) {
                continue; // The catalog partition that must hold its record does not serve yet.
            }
            if (p.fenceFirst != null) {
                if (fences.containsKey(p.fenceFirst)) {
                    continue; // Its last commits are in a lost OTM's log, not fenced yet.
                }
                p.fenceFirst = null;
            }
            String target;
            if (p.state == PartitionState.UNASSIGNED) {
                target = load.place(p);
            } else if (p.state == PartitionState.RETRY_WAIT && p.retryAtMs <= nowMs) {
                target = p.record.owner();
                if (!otms.containsKey(target)) {
                    throw new IllegalStateException("partition " + p.record.partitionId() + " waits to retry on "
                            + target + ", which is not live: a lost OTM's partitions must await its fence");
                }
            } else {
                continue;
            }
            openAt(p, target, out);
        }
    }

    /**
     * Whether every partition of catalog level {@code level} ({@link CatalogSchemas#level}) serves,
     * and there is at least one: then the records of the level below can be written.
     */
    public boolean levelServing(int level) {
        boolean any = false;
        for (Partition p : level < 2 ? catalog.values() : partitions.values()) {
            if (level(p) == level) {
                if (p.state != PartitionState.SERVING) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /**
     * Whether partitions of {@code level} may open: the nearest level above it that has partitions
     * serves entirely (vacuous without a catalog, as when this state machine is driven alone).
     */
    private boolean ready(int level) {
        for (int above = level - 1; above >= 0; above--) {
            int l = above;
            if (catalog.values().stream().anyMatch(p -> level(p) == l)) {
                return levelServing(l);
            }
        }
        return true;
    }

    private static int level(Partition p) {
        return CatalogSchemas.level(p.record.database());
    }

    /** The catalog's partitions (ROOT and META), by id. */
    public List<PartitionView> catalogPartitions() {
        List<PartitionView> views = new ArrayList<>();
        for (Partition p : catalog.values()) {
            views.add(new PartitionView(p.record, p.state));
        }
        return views;
    }

    /** Every partition, by id. */
    public List<PartitionView> partitions() {
        List<PartitionView> views = new ArrayList<>(partitions.size());
        for (Partition p : partitions.values()) {
            views.add(new PartitionView(p.record, p.state));
        }
        return views;
    }

    /** The largest partition id known, 0 if none: new partitions take ids above it. */
    public long maxPartitionId() {
        return partitions.isEmpty() ? 0 : partitions.lastKey();
    }

    /** The live OTMs' ids, sorted. */
    public List<String> liveOtms() {
        return new ArrayList<>(otms.keySet());
    }

    /** The lost OTMs not recovered yet (their fence confirmed or not), sorted. */
    public List<String> recoveringOtms() {
        TreeSet<String> ids = new TreeSet<>(recoveries.keySet());
        ids.addAll(fences.keySet());
        return new ArrayList<>(ids);
    }

    /** Whether {@code otmId} was lost and is not recovered yet. */
    public boolean recovering(String otmId) {
        return recoveries.containsKey(otmId);
    }

    /** The OTMs being drained. */
    public List<String> drainingOtms() {
        return new ArrayList<>(draining);
    }

    /** Whether a new run of {@code otmId} registered and waits for the fence of the previous run to join. */
    public boolean waitingForFence(String otmId) {
        return waitingForFence.containsKey(otmId);
    }

    /** Whether a fence of {@code otmId} is still to be confirmed. */
    public boolean fencing(String otmId) {
        return fences.containsKey(otmId);
    }

    public int opensInFlight() {
        return opensInFlight.size();
    }
}
