package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WalRetentionTest {

    @Test
    void oldestNeededIsTheMinimumRetainedOrTheEndWhenNothingIs() {
        WalRetention retention = new WalRetention();
        WalPosition end = new WalPosition(9, 500);
        assertEquals(end, retention.oldestNeeded(end));
        retention.retain(1, new WalPosition(4, 100));
        retention.retain(2, new WalPosition(3, 900));
        retention.retain(3, new WalPosition(7, 28));
        assertEquals(new WalPosition(3, 900), retention.oldestNeeded(end));
        retention.retain(2, new WalPosition(5, 28));
        assertEquals(new WalPosition(4, 100), retention.oldestNeeded(end));
        retention.release(1);
        assertEquals(new WalPosition(5, 28), retention.oldestNeeded(end));
        retention.release(2);
        retention.release(3);
        assertEquals(end, retention.oldestNeeded(end));
        assertEquals(0, retention.partitions());
    }

    @Test
    void oldestNeededIsNeverAfterTheEnd() {
        WalRetention retention = new WalRetention();
        retention.retain(1, new WalPosition(10, 28));
        assertEquals(new WalPosition(9, 0), retention.oldestNeeded(new WalPosition(9, 0)));
    }

    @Test
    void aPartitionsRetentionNeverMovesBack() {
        WalRetention retention = new WalRetention();
        retention.retain(1, new WalPosition(4, 100));
        assertThrows(IllegalStateException.class, () -> retention.retain(1, new WalPosition(4, 99)));
        retention.release(1);
        retention.retain(1, new WalPosition(2, 28));
        assertEquals(new WalPosition(2, 28), retention.oldestNeeded(new WalPosition(9, 0)));
    }
}
