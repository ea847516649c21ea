package org.elastras.master.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ledger keeps moves in flight, one per partition, and end times only as long as asked. */
class MoveLedgerTest {

    @Test
    void movesInFlightEndIntoCooldownsThatExpire() {
        MoveLedger ledger = new MoveLedger(60_000);
        Move a = new Move(1, "otm-1", "otm-2", MoveReason.OVERLOAD, "x");
        Move b = new Move(2, "otm-3", "otm-2", MoveReason.DRAIN, "y");
        ledger.started(a);
        ledger.started(b);
        assertThrows(IllegalStateException.class, () -> ledger.started(new Move(1, "otm-2", "otm-3", MoveReason.DRAIN, "z")));
        assertEquals(List.of(1L, 2L), List.copyOf(ledger.inFlight().keySet()));

        assertEquals(a, ledger.ended(1, 10_000));
        assertNull(ledger.ended(1, 11_000), "ended once");
        assertEquals(Map.of(1L, 10_000L), ledger.lastMovedAtMs(69_999));
        assertEquals(Map.of(), ledger.lastMovedAtMs(70_000));

        ledger.otmLost("otm-3", 80_000);
        assertEquals(Map.of(), ledger.inFlight());
        assertEquals(Map.of(2L, 80_000L), ledger.lastMovedAtMs(80_000));
    }
}
