package org.elastras.master.balance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The default {@link BalancePolicy}: thresholds on requests per second per OTM, held over the
 * whole window (ElasTraS section 4.7: the balancer reacts to load seen over a period, never to a
 * short spike). Stateless and immutable: cooldowns and moves in flight come in with the input.
 *
 * <p>An OTM's load is the sum of its partitions' loads, where a partition moving counts on its
 * destination already; unknown load counts as none, so missing reports never cause a move. In
 * this order:
 * <ol>
 *   <li><b>Drain.</b> Every serving partition of a draining OTM moves, hottest first, to the OTM
 *       with the least load, then the fewest partitions (cooldowns do not hold a drain back). With no other OTM, one is asked
 *       for.
 *   <li><b>Overload.</b> An OTM above the upper threshold in every slice of the window gives its
 *       hottest partitions (serving, not moving, out of cooldown, with load) to the least-loaded
 *       OTM, each time only if the destination stays at or below the upper threshold and below
 *       the source's load, until the source is at or below the upper threshold; if no such move
 *       exists, a move that leaves the destination below the source's load before it (the busier
 *       of the two gets less busy) even if above the threshold.
 *   <li><b>Scale out.</b> An OTM still overloaded after that (not for want of room under the
 *       bound on moves in flight, nor because of a cooldown, nor because of one partition alone) calls for enough OTMs
 *       for the cluster's load at the upper threshold (at least one), minus those already being
 *       added, up to {@code otmsMax}.
 *   <li><b>Scale in.</b> When nothing moves, nothing drains or is being added, every OTM reported
 *       over the whole window and stayed below the lower threshold in every slice, and the
 *       cluster's busiest slice spread over one OTM fewer stays at or below halfway between the
 *       thresholds: the least-loaded OTM (the newest on a tie) is drained and removed, down to
 *       {@code otmsMin}.
 * </ol>
 * Every step stops at the bound on moves in flight. Ties are broken by id, so the plan is
 * deterministic.
 */
public final class ThresholdPolicy implements BalancePolicy {

    private final ThresholdPolicyConfig config;

    public ThresholdPolicy(ThresholdPolicyConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("config is required");
        }
        this.config = config;
    }

    public ThresholdPolicyConfig config() {
        return config;
    }

    @Override
    public BalancePlan plan(BalanceInput input) {
        return new Planning(input).run();
    }

    /** One call's working state. */
    private final class Planning {

        private final BalanceInput in;
        private final LoadView load;
        private final int slices;
        /** Partition -> the OTM it will be on once the moves in flight and planned ones are done. */
        private final Map<Long, String> projectedOwner = new TreeMap<>();
        /** OTM -> window load and load per slice, under the projected owners. */
        private final Map<String, Double> otmLoad = new TreeMap<>();
        private final Map<String, double[]> otmLoadBySlice = new TreeMap<>();
        /** OTM -> partitions on it under the projected owners. */
        private final Map<String, Integer> otmPartitions = new TreeMap<>();
        private final List<Move> moves = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private final List<String> otmsToRemove = new ArrayList<>();
        private int otmsToAdd;
        private int budget;
        private boolean budgetNoted;
        /** Set when a cooldown kept a partition from relieving an overloaded OTM. */
        private boolean cooldownHeldBack;

        Planning(BalanceInput in) {
            this.in = in;
            this.load = in.load();
            this.slices = load.slices();
            this.budget = config.movesInFlightMax() - in.movesInFlight().size();
            for (String otm : in.liveOtms()) {
                otmLoad.put(otm, 0.0);
                otmLoadBySlice.put(otm, new double[slices]);
                otmPartitions.put(otm, 0);
            }
            for (Map.Entry<Long, Placement> e : in.partitions().entrySet()) {
                Move moving = in.movesInFlight().get(e.getKey());
                String owner = moving != null ? moving.toOtm() : e.getValue().owner();
                if (owner != null) {
                    projectedOwner.put(e.getKey(), owner);
                    addLoad(owner, e.getKey(), 1);
                }
            }
        }

        BalancePlan run() {
            drain();
            List<String> stillOverloaded = relieveOverload();
            scaleOut(stillOverloaded);
            scaleIn(stillOverloaded);
            return new BalancePlan(in.nowMs(), moves, otmsToAdd, otmsToRemove, notes);
        }

        private void addLoad(String otm, long partitionId, int sign) {
            double[] bySlice = otmLoadBySlice.get(otm);
            if (bySlice == null) {
                return; // not live: its load is nobody's concern here
            }
            otmLoad.merge(otm, sign * load.requestsPerSecondOrZero(partitionId), Double::sum);
            otmPartitions.merge(otm, sign, Integer::sum);
            for (int s = 0; s < slices; s++) {
                bySlice[s] += sign * load.requestsPerSecondInSliceOrZero(partitionId, s);
            }
        }

        private void move(long partitionId, String from, String to, MoveReason reason, String why) {
            moves.add(new Move(partitionId, from, to, reason, why));
            addLoad(from, partitionId, -1);
            addLoad(to, partitionId, 1);
            projectedOwner.put(partitionId, to);
            budget--;
        }

        private boolean budgetLeft() {
            if (budget > 0) {
                return true;
            }
            if (!budgetNoted) {
                notes.add("the bound of " + config.movesInFlightMax() + " moves in flight is reached; the rest waits");
                budgetNoted = true;
            }
            return false;
        }

        /** Movable partitions now on {@code otm} (not moving), hottest first, ties by id. */
        private List<Long> partitionsOn(String otm) {
            List<Long> out = new ArrayList<>();
            for (Map.Entry<Long, String> e : projectedOwner.entrySet()) {
                if (e.getValue().equals(otm) && !in.movesInFlight().containsKey(e.getKey())) {
                    out.add(e.getKey());
                }
            }
            out.sort(Comparator.comparingDouble((Long p) -> -load.requestsPerSecondOrZero(p)).thenComparing(p -> p));
            return out;
        }

        /**
         * The live, not draining OTM other than {@code except} with the least load, then the fewest
         * partitions (so partitions without load spread out), then the smallest id; null if none.
         */
        private String leastLoaded(String except) {
            String best = null;
            for (Map.Entry<String, Double> e : otmLoad.entrySet()) {
                String otm = e.getKey();
                if (otm.equals(except) || in.drainingOtms().contains(otm) || otmsToRemove.contains(otm)) {
                    continue;
                }
                if (best == null || e.getValue() < otmLoad.get(best)
                        || (e.getValue().equals(otmLoad.get(best)) && otmPartitions.get(otm) < otmPartitions.get(best))) {
                    best = otm;
                }
            }
            return best;
        }

        private boolean serving(long partitionId) {
            Placement p = in.partitions().get(partitionId);
            return p != null && p.serving();
        }

        private void drain() {
            for (String otm : in.drainingOtms()) {
                if (!otmLoad.containsKey(otm)) {
                    continue; // not live: nothing to drain
                }
                drainOne(otm, MoveReason.DRAIN, "draining " + otm);
            }
        }

        private void drainOne(String otm, MoveReason reason, String why) {
            for (long p : partitionsOn(otm)) {
                if (!serving(p)) {
                    notes.add("partition " + p + " on " + otm + " is not serving; it moves once it serves");
                    continue;
                }
                if (!budgetLeft()) {
                    return;
                }
                String to = leastLoaded(otm);
                if (to == null) {
                    notes.add("cannot drain " + otm + ": no other OTM can take its partitions");
                    if (in.otmsBeingAdded() == 0 && otmsToAdd == 0 && in.liveOtms().size() < config.otmsMax()) {
                        otmsToAdd = 1;
                    }
                    return;
                }
                move(p, otm, to, reason, why + "; partition " + rate(load.requestsPerSecondOrZero(p)));
            }
        }

        /**
         * Moves {@code otm}'s hottest movable partitions to the least-loaded OTM until it is at or
         * below the upper threshold; never to a destination that would end at or above the source's
         * load (which also rules out moving one back later), nor, if {@code underUpper}, above the
         * threshold. Returns whether anything moved.
         */
        private boolean relieve(String otm, String why, boolean underUpper) {
            double upper = config.upperRequestsPerSecond();
            boolean moved = false;
            for (long p : partitionsOn(otm)) {
                if (otmLoad.get(otm) <= upper) {
                    break;
                }
                double r = load.requestsPerSecondOrZero(p);
                if (r <= 0 || !serving(p) || coolingDown(p)) {
                    continue;
                }
                String to = leastLoaded(otm);
                if (to == null) {
                    break;
                }
                double after = otmLoad.get(to) + r;
                if ((underUpper && after > upper) || after >= otmLoad.get(otm)) {
                    continue;
                }
                if (!budgetLeft()) {
                    break;
                }
                move(p, otm, to, MoveReason.OVERLOAD, why + "; partition " + rate(r));
                moved = true;
            }
            return moved;
        }

        /** Returns the OTMs still overloaded after the planned moves. */
        private List<String> relieveOverload() {
            double upper = config.upperRequestsPerSecond();
            List<String> overloaded = new ArrayList<>();
            for (String otm : otmLoad.keySet()) {
                if (!in.drainingOtms().contains(otm) && sustainedAbove(otm, upper)) {
                    overloaded.add(otm);
                }
            }
            overloaded.sort(Comparator.comparingDouble((String o) -> -otmLoad.get(o)).thenComparing(o -> o));
            List<String> still = new ArrayList<>();
            for (String otm : overloaded) {
                double before = otmLoad.get(otm);
                String why = otm + " at " + rate(before) + ", above " + rate(upper) + " in every slice";
                // First only moves that keep the destination at or below the threshold; if that moves
                // nothing, any move that makes the busier of the two less busy (a partition hotter than
                // the room under the threshold must still be able to move, or new OTMs would be asked
                // for in vain).
                if (!relieve(otm, why, true)) {
                    relieve(otm, why, false);
                }
                if (otmLoad.get(otm) > upper) {
                    still.add(otm);
                }
            }
            return still;
        }

        private boolean coolingDown(long partitionId) {
            Long endedAtMs = in.lastMovedAtMs().get(partitionId);
            if (endedAtMs != null && in.nowMs() - endedAtMs < config.cooldownMs()) {
                notes.add("partition " + partitionId + " moved " + (in.nowMs() - endedAtMs) + " ms ago; cooldown "
                        + config.cooldownMs() + " ms");
                cooldownHeldBack = true;
                return true;
            }
            return false;
        }

        private boolean sustainedAbove(String otm, double threshold) {
            for (double v : otmLoadBySlice.get(otm)) {
                if (!(v > threshold)) {
                    return false;
                }
            }
            return true;
        }

        private void scaleOut(List<String> stillOverloaded) {
            if (stillOverloaded.isEmpty() || budgetNoted || cooldownHeldBack) {
                return; // nothing left over, or the bound on moves or a cooldown held it back: no sign of missing capacity
            }
            double total = 0;
            int serving = 0;
            for (Map.Entry<String, Double> e : otmLoad.entrySet()) {
                if (!in.drainingOtms().contains(e.getKey())) {
                    total += e.getValue();
                    serving++;
                }
            }
            List<String> helped = new ArrayList<>();
            for (String otm : stillOverloaded) {
                List<Long> loaded = partitionsOn(otm).stream().filter(p -> load.requestsPerSecondOrZero(p) > 0).toList();
                if (loaded.size() == 1) {
                    notes.add("partition " + loaded.get(0) + " alone keeps " + otm + " at " + rate(otmLoad.get(otm))
                            + "; no move or new OTM can help");
                } else {
                    helped.add(otm);
                }
            }
            if (helped.isEmpty()) {
                return;
            }
            int wanted = Math.max(1, (int) Math.ceil(total / config.upperRequestsPerSecond()) - serving);
            int room = config.otmsMax() - in.liveOtms().size() - in.otmsBeingAdded();
            int add = Math.min(wanted - in.otmsBeingAdded(), room);
            String why = String.join(", ", helped) + " stays above " + rate(config.upperRequestsPerSecond())
                    + " with no OTM able to take more; the cluster carries " + rate(total);
            if (add <= 0) {
                notes.add(why + (room <= 0 ? "; already at otmsMax " + config.otmsMax()
                        : "; " + in.otmsBeingAdded() + " OTM(s) being added"));
                return;
            }
            otmsToAdd = Math.max(otmsToAdd, add);
            notes.add(why + ": add " + add);
        }

        private void scaleIn(List<String> stillOverloaded) {
            if (!moves.isEmpty() || !in.movesInFlight().isEmpty() || !in.drainingOtms().isEmpty()
                    || in.otmsBeingAdded() > 0 || otmsToAdd > 0 || !stillOverloaded.isEmpty()
                    || otmLoad.size() <= config.otmsMin()) {
                return;
            }
            double lower = config.lowerRequestsPerSecond();
            double[] total = new double[slices];
            for (String otm : otmLoad.keySet()) {
                WindowLoad measured = load.otms().get(otm);
                if (measured == null || !measured.everySliceKnown()) {
                    return; // an OTM without reports over the whole window: its low load is not known
                }
                double[] bySlice = otmLoadBySlice.get(otm);
                for (int s = 0; s < slices; s++) {
                    if (!(bySlice[s] < lower)) {
                        return;
                    }
                    total[s] += bySlice[s];
                }
            }
            double busiest = 0;
            for (double t : total) {
                busiest = Math.max(busiest, t);
            }
            int remaining = otmLoad.size() - 1;
            double target = config.consolidationTargetRequestsPerSecond();
            if (busiest / remaining > target) {
                return;
            }
            String victim = null;
            for (String otm : new TreeSet<>(otmLoad.keySet()).descendingSet()) {
                if (victim == null || otmLoad.get(otm) < otmLoad.get(victim)) {
                    victim = otm;
                }
            }
            otmsToRemove.add(victim);
            notes.add("every OTM stayed below " + rate(lower) + " in every slice; the busiest slice ("
                    + rate(busiest) + ") fits on " + remaining + " OTM(s) at or below " + rate(target)
                    + ": drain and remove " + victim);
            drainOne(victim, MoveReason.CONSOLIDATE, "consolidating: " + victim + " at " + rate(otmLoad.get(victim))
                    + " is removed");
        }
    }

    private static String rate(double requestsPerSecond) {
        return String.format(Locale.ROOT, "%.0f req/s", requestsPerSecond);
    }
}
