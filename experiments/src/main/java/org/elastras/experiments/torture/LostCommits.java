package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elastras.experiments.history.History;
import org.elastras.experiments.history.MicroOp;
import org.elastras.experiments.history.Outcome;
import org.elastras.experiments.history.Transaction;

/**
 * Finds acknowledged commits that were lost (DESIGN.md invariant 2): every append of a transaction
 * the client saw commit (OK) must be in the final read of its key, taken after the run at a
 * snapshot that includes every acknowledged commit. Appends of UNKNOWN transactions may be
 * present or not; an aborted one that shows up is the checker's G1a. Pure logic; stateless.
 */
final class LostCommits {

    /** One acknowledged append missing from the final list of its key. */
    record LostAppend(long transactionId, String key, long value) {
        @Override
        public String toString() {
            return "transaction " + transactionId + " committed append(" + key + ", " + value + ") but the final read of " + key
                    + " lacks " + value;
        }
    }

    private LostCommits() {
    }

    /**
     * @param history    the run's history
     * @param finalLists key -> the list the final read returned (every key an OK transaction appended to)
     * @return the lost appends, in transaction order
     */
    static List<LostAppend> find(History history, Map<String, List<Long>> finalLists) {
        Map<String, Set<Long>> present = new java.util.HashMap<>();
        finalLists.forEach((key, values) -> present.put(key, new HashSet<>(values)));
        List<LostAppend> lost = new ArrayList<>();
        for (Transaction transaction : history.transactions()) {
            if (transaction.outcome() != Outcome.OK) {
                continue;
            }
            for (MicroOp op : transaction.ops()) {
                if (op instanceof MicroOp.Append append && !present.getOrDefault(append.key(), Set.of()).contains(append.value())) {
                    lost.add(new LostAppend(transaction.id(), append.key(), append.value()));
                }
            }
        }
        return lost;
    }
}
