package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.elastras.experiments.history.Outcome;

/**
 * The bank's end-of-run check: every transfer writes, besides the two balances, one ledger row per
 * account ({@code ENTRY(account, transfer id, delta)}, in the account's partition), so the final
 * state tells which transfers committed, and this class judges it against what the clients were
 * told (DESIGN.md invariants 2 and 3):
 *
 * <ul>
 *   <li>lost: a transfer acknowledged as having moved money lacks one of its two entries;</li>
 *   <li>partial: a transfer, whatever its outcome, has one of its two entries and not the other
 *       (half of a transaction, on one partition or across two);</li>
 *   <li>aborted but visible: a transfer that failed, or was acknowledged as having moved nothing,
 *       has an entry;</li>
 *   <li>garbage: an entry no transfer wrote (unknown id, wrong account or wrong amount);</li>
 *   <li>wrong balance: an account whose balance is not its opening balance plus its entries;</li>
 *   <li>the grand total of the balances differs from what the accounts were opened with.</li>
 * </ul>
 *
 * A transfer of unknown outcome may have committed or not, but wholly. Pure logic; stateless.
 */
final class BankLedger {

    static final int EXAMPLES_MAX = 20;

    /**
     * One transfer as the client saw it.
     *
     * @param moved for {@link Outcome#OK}: whether it moved money (false: the source held too little
     *              and nothing was written); ignored otherwise
     */
    record Transfer(long id, long from, long to, long amount, boolean crossPartition, Outcome outcome, boolean moved) {
        Transfer {
            Objects.requireNonNull(outcome, "outcome");
            if (from == to || amount <= 0) {
                throw new IllegalArgumentException("a transfer needs two accounts and a positive amount: " + from + " -> " + to
                        + " of " + amount);
            }
        }
    }

    /** The final state read back: account -> balance, and account -> (transfer id -> delta). */
    record FinalState(Map<Long, Long> balances, Map<Long, Map<Long, Long>> entries) {
        FinalState {
            balances = Map.copyOf(balances);
            entries = Map.copyOf(entries);
        }
    }

    /** The verdict; {@code checked} false if the final state could not be read. Immutable. */
    record Verdict(boolean checked, long transfersChecked, long lost, long partial, long abortedVisible, long garbage, long wrongBalances,
            long unknownCommitted, long grandTotal, long expectedGrandTotal, List<String> examples) {
        Verdict {
            examples = List.copyOf(examples);
        }

        /** A verdict for a run whose final state could not be read (the run fails on its harness error). */
        static Verdict notChecked(long transfers, String why) {
            return new Verdict(false, transfers, 0, 0, 0, 0, 0, 0, 0, 0, List.of("NOT CHECKED: " + why));
        }

        /** Problems that break atomicity or isolation (lost acknowledged transfers are counted apart). */
        long anomalies() {
            return partial + abortedVisible + garbage + wrongBalances + (grandTotal == expectedGrandTotal ? 0 : 1);
        }
    }

    private BankLedger() {
    }

    /**
     * @param transfers      every transfer attempted in the run, each id once
     * @param state          the final state, read at one snapshot after every acknowledged transfer
     * @param accounts       every account opened
     * @param openingBalance what each account was opened with
     */
    static Verdict check(List<Transfer> transfers, FinalState state, java.util.Collection<Long> accounts, long openingBalance) {
        List<String> examples = new ArrayList<>();
        long lost = 0;
        long partial = 0;
        long abortedVisible = 0;
        long garbage = 0;
        long wrongBalances = 0;
        long unknownCommitted = 0;
        Map<Long, Transfer> byId = new HashMap<>();
        for (Transfer t : transfers) {
            if (byId.put(t.id(), t) != null) {
                throw new IllegalArgumentException("transfer id " + t.id() + " recorded twice");
            }
            Long fromEntry = entry(state, t.from(), t.id());
            Long toEntry = entry(state, t.to(), t.id());
            boolean anyPresent = fromEntry != null || toEntry != null;
            boolean bothPresent = fromEntry != null && toEntry != null;
            if (anyPresent && !bothPresent) {
                partial++;
                example(examples, "PARTIAL: " + t + " has only its " + (fromEntry != null ? "debit" : "credit") + " entry");
            }
            boolean mustHave = t.outcome() == Outcome.OK && t.moved();
            boolean mustNotHave = t.outcome() == Outcome.FAIL || (t.outcome() == Outcome.OK && !t.moved());
            if (mustHave && !bothPresent) {
                lost++;
                example(examples, "LOST: " + t + " was acknowledged but its entries are " + fromEntry + " / " + toEntry);
            }
            if (mustNotHave && anyPresent) {
                abortedVisible++;
                example(examples, "ABORTED BUT VISIBLE: " + t + " has entries " + fromEntry + " / " + toEntry);
            }
            if (t.outcome() == Outcome.UNKNOWN && bothPresent) {
                unknownCommitted++;
            }
        }
        long grandTotal = 0;
        for (Map.Entry<Long, Long> account : state.balances().entrySet()) {
            long id = account.getKey();
            long sum = 0;
            for (Map.Entry<Long, Long> e : state.entries().getOrDefault(id, Map.of()).entrySet()) {
                sum += e.getValue();
                Transfer t = byId.get(e.getKey());
                long expected = t == null ? 0 : id == t.from() ? -t.amount() : id == t.to() ? t.amount() : 0;
                if (expected == 0 || expected != e.getValue()) {
                    garbage++;
                    example(examples, "GARBAGE: account " + id + " has entry " + e.getKey() + " = " + e.getValue()
                            + (t == null ? ", no such transfer" : ", but " + t + " would write " + expected));
                }
            }
            if (account.getValue() != openingBalance + sum) {
                wrongBalances++;
                example(examples, "WRONG BALANCE: account " + id + " holds " + account.getValue() + ", its opening balance "
                        + openingBalance + " plus its entries make " + (openingBalance + sum));
            }
            grandTotal += account.getValue();
        }
        for (Long id : accounts) {
            if (!state.balances().containsKey(id)) {
                wrongBalances++;
                example(examples, "MISSING ACCOUNT: " + id + " was opened but is not in the final read");
            }
        }
        for (Long id : state.balances().keySet()) {
            if (!accounts.contains(id)) {
                garbage++;
                example(examples, "GARBAGE: account " + id + " was never opened");
            }
        }
        for (Long id : state.entries().keySet()) {
            if (!state.balances().containsKey(id)) {
                garbage += state.entries().get(id).size();
                example(examples, "GARBAGE: entries " + state.entries().get(id) + " of account " + id + ", which does not exist");
            }
        }
        long expectedGrandTotal = openingBalance * accounts.size();
        if (grandTotal != expectedGrandTotal) {
            example(examples, "WRONG GRAND TOTAL: " + grandTotal + ", expected " + expectedGrandTotal);
        }
        return new Verdict(true, transfers.size(), lost, partial, abortedVisible, garbage, wrongBalances, unknownCommitted, grandTotal,
                expectedGrandTotal, examples);
    }

    private static Long entry(FinalState state, long account, long transferId) {
        return state.entries().getOrDefault(account, Map.of()).get(transferId);
    }

    private static void example(List<String> examples, String example) {
        if (examples.size() < EXAMPLES_MAX) {
            examples.add(example);
        }
    }
}
