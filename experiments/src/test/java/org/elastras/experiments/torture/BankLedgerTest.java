package org.elastras.experiments.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.experiments.history.Outcome;
import org.junit.jupiter.api.Test;

/**
 * The bank's ledger check catches each way a transfer can go wrong: an acknowledged transfer lost,
 * half of one visible, an aborted one visible, an entry nobody wrote, a balance that disagrees with
 * its entries, a changed grand total; and passes a state that is right, with transfers of unknown
 * outcome committed or not.
 */
class BankLedgerTest {

    private static final long OPENING = 100;
    private static final List<Long> ACCOUNTS = List.of(1L, 2L, 1_000_001L, 1_000_002L);

    /** A final state built by applying some transfers to the opened accounts, entries and balances alike. */
    private static final class State {
        final Map<Long, Long> balances = new TreeMap<>();
        final Map<Long, Map<Long, Long>> entries = new TreeMap<>();

        State() {
            ACCOUNTS.forEach(a -> balances.put(a, OPENING));
        }

        State apply(BankLedger.Transfer t) {
            debit(t.from(), t.id(), t.amount());
            credit(t.to(), t.id(), t.amount());
            return this;
        }

        State debit(long account, long id, long amount) {
            balances.merge(account, -amount, Long::sum);
            entries.computeIfAbsent(account, a -> new HashMap<>()).put(id, -amount);
            return this;
        }

        State credit(long account, long id, long amount) {
            balances.merge(account, amount, Long::sum);
            entries.computeIfAbsent(account, a -> new HashMap<>()).put(id, amount);
            return this;
        }

        BankLedger.Verdict check(List<BankLedger.Transfer> transfers) {
            return BankLedger.check(transfers, new BankLedger.FinalState(balances, entries), ACCOUNTS, OPENING);
        }
    }

    private static BankLedger.Transfer ok(long id, long from, long to, long amount) {
        return new BankLedger.Transfer(id, from, to, amount, from / 1_000_000 != to / 1_000_000, Outcome.OK, true);
    }

    private static BankLedger.Transfer with(BankLedger.Transfer t, Outcome outcome, boolean moved) {
        return new BankLedger.Transfer(t.id(), t.from(), t.to(), t.amount(), t.crossPartition(), outcome, moved);
    }

    @Test
    void aRightStateWithUnknownTransfersCommittedOrNotPasses() {
        BankLedger.Transfer same = ok(1, 1, 2, 10);
        BankLedger.Transfer cross = ok(2, 2, 1_000_001, 7);
        BankLedger.Transfer unknownCommitted = with(ok(3, 1_000_002, 1, 5), Outcome.UNKNOWN, false);
        BankLedger.Transfer unknownNot = with(ok(4, 1, 1_000_002, 5), Outcome.UNKNOWN, false);
        BankLedger.Transfer failed = with(ok(5, 2, 1, 3), Outcome.FAIL, false);
        BankLedger.Transfer movedNothing = with(ok(6, 1_000_001, 2, 90), Outcome.OK, false);
        State state = new State().apply(same).apply(cross).apply(unknownCommitted);

        BankLedger.Verdict v = state.check(List.of(same, cross, unknownCommitted, unknownNot, failed, movedNothing));

        assertEquals(0, v.lost(), v.examples().toString());
        assertEquals(0, v.anomalies(), v.examples().toString());
        assertEquals(1, v.unknownCommitted());
        assertEquals(6, v.transfersChecked());
        assertEquals(OPENING * ACCOUNTS.size(), v.grandTotal());
        assertEquals(List.of(), v.examples());
    }

    @Test
    void anAcknowledgedCrossPartitionTransferMissingOnBothPartitionsIsLost() {
        BankLedger.Transfer cross = ok(1, 2, 1_000_001, 7);
        BankLedger.Verdict v = new State().check(List.of(cross));
        assertEquals(1, v.lost());
        assertEquals(0, v.anomalies(), "nothing else is wrong: the state is the opening one");
        assertTrue(v.examples().get(0).startsWith("LOST"), v.examples().toString());
    }

    @Test
    void halfOfACrossPartitionTransferIsPartialWhateverItsOutcome() {
        for (Outcome outcome : Outcome.values()) {
            BankLedger.Transfer t = with(ok(1, 2, 1_000_001, 7), outcome, outcome == Outcome.OK);
            // The credit on the other partition arrives, its balance too; the debit never does.
            BankLedger.Verdict v = new State().credit(1_000_001, 1, 7).check(List.of(t));
            assertEquals(1, v.partial(), outcome + ": " + v.examples());
            assertEquals(outcome == Outcome.OK ? 1 : 0, v.lost(), outcome + ": " + v.examples());
            assertEquals(outcome == Outcome.FAIL ? 1 : 0, v.abortedVisible(), outcome + ": " + v.examples());
            assertEquals(OPENING * ACCOUNTS.size() + 7, v.grandTotal());
        }
    }

    @Test
    void onlyTheDebitOfATransferIsPartialAndLostAndChangesTheGrandTotal() {
        BankLedger.Transfer t = ok(1, 1, 1_000_001, 7);
        BankLedger.Verdict v = new State().debit(1, 1, 7).check(List.of(t));
        assertEquals(1, v.partial());
        assertEquals(1, v.lost());
        assertEquals(OPENING * ACCOUNTS.size() - 7, v.grandTotal());
        assertEquals(2, v.anomalies(), "partial and the grand total: " + v.examples());
    }

    @Test
    void aFailedTransferOrOneThatMovedNothingMustLeaveNoEntry() {
        BankLedger.Transfer failed = with(ok(1, 1, 2, 10), Outcome.FAIL, false);
        BankLedger.Transfer nothing = with(ok(2, 1_000_001, 1_000_002, 10), Outcome.OK, false);
        BankLedger.Verdict v = new State().apply(failed).apply(nothing).check(List.of(failed, nothing));
        assertEquals(2, v.abortedVisible(), v.examples().toString());
        assertEquals(0, v.lost());
    }

    @Test
    void anEntryNoTransferWroteOrOfTheWrongAmountIsGarbage() {
        BankLedger.Transfer t = ok(1, 1, 2, 10);
        State state = new State().debit(1, 1, 10).credit(2, 1, 11);
        BankLedger.Verdict v = state.check(List.of(t));
        assertEquals(1, v.garbage(), v.examples().toString());

        BankLedger.Verdict unknownId = new State().credit(2, 42, 5).debit(1, 42, 5).check(List.of());
        assertEquals(2, unknownId.garbage(), unknownId.examples().toString());
    }

    @Test
    void aBalanceThatDisagreesWithItsEntriesIsWrongEvenWhenTheGrandTotalHolds() {
        BankLedger.Transfer t = ok(1, 1, 1_000_001, 10);
        State state = new State().apply(t);
        state.balances.merge(2L, 3L, Long::sum);
        state.balances.merge(1_000_002L, -3L, Long::sum);
        BankLedger.Verdict v = state.check(List.of(t));
        assertEquals(2, v.wrongBalances(), v.examples().toString());
        assertEquals(OPENING * ACCOUNTS.size(), v.grandTotal());
    }

    @Test
    void aMissingAccountIsReported() {
        State state = new State();
        state.balances.remove(2L);
        BankLedger.Verdict v = state.check(List.of());
        assertEquals(1, v.wrongBalances(), v.examples().toString());
        assertTrue(v.anomalies() >= 2, "the grand total is short too: " + v.examples());
    }

    @Test
    void aTransferIdRecordedTwiceIsAHarnessBug() {
        BankLedger.Transfer t = ok(1, 1, 2, 10);
        assertThrows(IllegalArgumentException.class, () -> new State().check(List.of(t, t)));
    }
}
