package org.elastras.master.cluster;

import java.util.Map;
import java.util.SortedMap;

/**
 * Where an unassigned partition goes: to the live OTM with the fewest partitions, ties broken by
 * the smallest OTM id, so that the same inputs always give the same plan. Stateless.
 *
 * <p>"Fewest partitions" stands in for load until OTM heartbeats report real load.
 */
public final class AssignmentPlanner {

    private AssignmentPlanner() {
    }

    /**
     * @param partitionsPerOtm every live OTM (sorted by id) with how many partitions it has or is opening
     * @return the chosen OTM's id, or null if there is no live OTM
     */
    public static String leastLoaded(SortedMap<String, Integer> partitionsPerOtm) {
        String best = null;
        int bestCount = Integer.MAX_VALUE;
        for (Map.Entry<String, Integer> e : partitionsPerOtm.entrySet()) {
            // Strictly fewer: on a tie the earlier (smaller) id, seen first, stays.
            if (e.getValue() < bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }
}
