package org.elastras.master.cluster;

import java.util.Map;
import java.util.SortedMap;

/**
 * Where an unassigned partition goes: to the live OTM with the fewest partitions of its kind
 * (catalog or user), ties broken by the fewest partitions in all, then by the smallest OTM id, so
 * that the same inputs always give the same plan. Stateless.
 *
 * <p>"Fewest partitions" stands in for load until OTM heartbeats report real load (the balancer,
 * {@code ThresholdPolicy}, moves partitions by the load they report).
 */
public final class AssignmentPlanner {

    private AssignmentPlanner() {
    }

    /**
     * @param ofKind every live OTM that may take the partition (sorted by id) with how many
     *     partitions of the partition's kind it has or is opening
     * @param all the same OTMs with how many partitions of any kind they have or are opening
     * @return the chosen OTM's id, or null if there is no live OTM
     */
    public static String leastLoaded(SortedMap<String, Integer> ofKind, Map<String, Integer> all) {
        String best = null;
        int bestOfKind = Integer.MAX_VALUE;
        int bestAll = Integer.MAX_VALUE;
        for (Map.Entry<String, Integer> e : ofKind.entrySet()) {
            int total = all.getOrDefault(e.getKey(), 0);
            // Strictly fewer: on a full tie the earlier (smaller) id, seen first, stays.
            if (e.getValue() < bestOfKind || (e.getValue() == bestOfKind && total < bestAll)) {
                best = e.getKey();
                bestOfKind = e.getValue();
                bestAll = total;
            }
        }
        return best;
    }
}
