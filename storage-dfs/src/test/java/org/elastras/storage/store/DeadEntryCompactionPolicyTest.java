package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DeadEntryCompactionPolicyTest {

    /** At least 10,000 dead entries, at least half of what was read, at least 30 s apart. */
    private final DeadEntryCompactionPolicy policy = new DeadEntryCompactionPolicy(10_000, 50, 30_000);

    @Test
    void fewerDeadEntriesThanTheMinimumMakeNoCompactionDueHoweverLargeTheirShare() {
        assertFalse(policy.compactNow(9_999, 9_999, 60_000));
        assertFalse(policy.compactNow(0, 0, 60_000));
    }

    @Test
    void manyDeadEntriesThatAreALargeShareOfWhatWasReadMakeACompactionDue() {
        assertTrue(policy.compactNow(10_000, 10_000, 30_000));
        assertTrue(policy.compactNow(10_000, 20_000, 30_000), "exactly half");
        assertTrue(policy.compactNow(1_000_000, 1_200_000, 30_000));
    }

    @Test
    void manyDeadEntriesThatAreASmallShareOfWhatWasReadMakeNoCompactionDue() {
        assertFalse(policy.compactNow(10_000, 20_001, 60_000));
        assertFalse(policy.compactNow(1_000_000, 10_000_000, 60_000));
    }

    @Test
    void noCompactionIsDueBeforeTheIntervalSinceTheLastOneHasPassed() {
        assertFalse(policy.compactNow(1_000_000, 1_000_000, 29_999));
        assertFalse(policy.compactNow(1_000_000, 1_000_000, 0));
        assertTrue(policy.compactNow(1_000_000, 1_000_000, 30_000));
    }

    @Test
    void theLargestMinimumDisablesTheTrigger() {
        DeadEntryCompactionPolicy off = new DeadEntryCompactionPolicy(Long.MAX_VALUE, 1, 1);
        assertFalse(off.compactNow(Long.MAX_VALUE - 1, Long.MAX_VALUE - 1, Long.MAX_VALUE));
    }

    @Test
    void countsThatCannotHappenAreABug() {
        assertThrows(IllegalArgumentException.class, () -> policy.compactNow(-1, 0, 60_000));
        assertThrows(IllegalArgumentException.class, () -> policy.compactNow(10, 5, 60_000));
    }

    @Test
    void boundsOutOfRangeAreRefusedWhereTheyAreSet() {
        assertThrows(IllegalArgumentException.class, () -> new DeadEntryCompactionPolicy(0, 50, 30_000));
        assertThrows(IllegalArgumentException.class, () -> new DeadEntryCompactionPolicy(10_000, 0, 30_000));
        assertThrows(IllegalArgumentException.class, () -> new DeadEntryCompactionPolicy(10_000, 101, 30_000));
        assertThrows(IllegalArgumentException.class, () -> new DeadEntryCompactionPolicy(10_000, 50, 0));
        assertThrows(IllegalArgumentException.class,
                () -> new DeadEntryCompactionPolicy(10_000, 50, DeadEntryCompactionPolicy.INTERVAL_MS_MAX + 1));
        assertThrows(IllegalArgumentException.class, () -> StoreOptions.DEFAULT.withDeadEntriesCompaction(10_000, 50, 0));
        StoreOptions options = StoreOptions.DEFAULT.withDeadEntriesCompaction(2_000, 75, 1_000);
        assertEquals(2_000, options.deadEntriesCompactionMin());
        assertEquals(75, options.deadEntriesCompactionPercent());
        assertEquals(1_000, options.deadEntriesCompactionIntervalMs());
        assertEquals(StoreOptions.DEFAULT.memtableBytesMax(), options.memtableBytesMax());
    }
}
