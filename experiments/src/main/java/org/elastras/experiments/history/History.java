package org.elastras.experiments.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A recorded history: the transactions of one run and the isolation level the system claimed
 * for them. Immutable. The constructor checks what the checker relies on and throws
 * {@link IllegalArgumentException} naming the offending transaction otherwise: unique ids, each
 * (key, value) written at most once, each key used by one workload only (list or register), and
 * each process running one transaction at a time.
 *
 * @param isolation    the level the system promised
 * @param transactions in recording order
 * @param truncated    true if the recorder hit its bound and dropped later transactions; their
 *                     writes may then be read by recorded ones, so a truncated history is not
 *                     checked for garbage reads
 */
public record History(IsolationLevel isolation, List<Transaction> transactions, boolean truncated) {

    public History {
        Objects.requireNonNull(isolation, "isolation");
        transactions = List.copyOf(transactions);
        Set<Long> ids = new HashSet<>();
        Map<String, Boolean> listKeys = new HashMap<>();
        Map<String, Map<Long, Long>> writerByValueByKey = new HashMap<>();
        Map<Integer, List<Transaction>> byProcess = new HashMap<>();
        for (Transaction transaction : transactions) {
            if (!ids.add(transaction.id())) {
                throw new IllegalArgumentException("transaction id " + transaction.id() + " appears twice");
            }
            for (MicroOp op : transaction.ops()) {
                Boolean list = listKeys.putIfAbsent(op.key(), op.isListOp());
                if (list != null && list != op.isListOp()) {
                    throw new IllegalArgumentException("key " + op.key() + " is used both as a list and as a register (transaction "
                            + transaction.id() + ": " + op + ")");
                }
                if (op.isWrite()) {
                    long value = op instanceof MicroOp.Append append ? append.value() : ((MicroOp.Write) op).value();
                    Long earlier = writerByValueByKey.computeIfAbsent(op.key(), k -> new HashMap<>()).putIfAbsent(value, transaction.id());
                    if (earlier != null) {
                        throw new IllegalArgumentException("value " + value + " is written to key " + op.key() + " twice (transactions "
                                + earlier + " and " + transaction.id() + "); the workload must write unique values per key");
                    }
                }
            }
            byProcess.computeIfAbsent(transaction.process(), p -> new ArrayList<>()).add(transaction);
        }
        for (List<Transaction> session : byProcess.values()) {
            List<Transaction> ordered = new ArrayList<>(session);
            ordered.sort(Comparator.comparingLong(Transaction::invokeNanos).thenComparingLong(Transaction::id));
            for (int i = 1; i < ordered.size(); i++) {
                Transaction before = ordered.get(i - 1);
                Transaction after = ordered.get(i);
                if (after.invokeNanos() < before.completeNanos()) {
                    throw new IllegalArgumentException("process " + after.process() + " runs transactions " + before.id() + " and "
                            + after.id() + " at the same time; a process must run one transaction at a time");
                }
            }
        }
    }

    public int size() {
        return transactions.size();
    }
}
