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

    /**
     * A transaction only some of whose appends are in the final reads: it committed in part
     * (atomicity). For OK transactions the missing appends are also lost commits.
     */
    record PartialCommit(long transactionId, Outcome outcome, List<String> present, List<String> missing) {
        @Override
        public String toString() {
            return "transaction " + transactionId + " (" + outcome + ") is only partly visible: " + present + " in the final reads, "
                    + missing + " not";
        }
    }

    private LostCommits() {
    }

    /** Transactions (of any outcome) with some but not all of their appends in {@code finalLists}. */
    static List<PartialCommit> partial(History history, Map<String, List<Long>> finalLists) {
        Map<String, Set<Long>> present = new java.util.HashMap<>();
        finalLists.forEach((key, values) -> present.put(key, new HashSet<>(values)));
        List<PartialCommit> partial = new ArrayList<>();
        for (Transaction transaction : history.transactions()) {
            List<String> in = new ArrayList<>();
            List<String> out = new ArrayList<>();
            for (MicroOp op : transaction.ops()) {
                if (op instanceof MicroOp.Append append) {
                    (present.getOrDefault(append.key(), Set.of()).contains(append.value()) ? in : out).add(append.toString());
                }
            }
            if (!in.isEmpty() && !out.isEmpty()) {
                partial.add(new PartialCommit(transaction.id(), transaction.outcome(), in, out));
            }
        }
        return partial;
    }

    /** How many UNKNOWN transactions that appended are wholly visible in the final reads (committed after all). */
    static long unknownButCommitted(History history, Map<String, List<Long>> finalLists) {
        Map<String, Set<Long>> present = new java.util.HashMap<>();
        finalLists.forEach((key, values) -> present.put(key, new HashSet<>(values)));
        long count = 0;
        for (Transaction transaction : history.transactions()) {
            if (transaction.outcome() != Outcome.UNKNOWN) {
                continue;
            }
            List<MicroOp.Append> appends = transaction.ops().stream().filter(op -> op instanceof MicroOp.Append)
                    .map(op -> (MicroOp.Append) op).toList();
            if (!appends.isEmpty() && appends.stream().allMatch(a -> present.getOrDefault(a.key(), Set.of()).contains(a.value()))) {
                count++;
            }
        }
        return count;
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
