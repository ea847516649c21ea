package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The OTM's command line: defaults, the execution-slot flag, and clear refusals. */
class OtmConfigTest {

    private static final String[] REQUIRED = {"--id", "otm-1", "--zk", "127.0.0.1:2181", "--dfs", "file:/tmp/elastras"};

    private static String[] with(String... more) {
        String[] all = new String[REQUIRED.length + more.length];
        System.arraycopy(REQUIRED, 0, all, 0, REQUIRED.length);
        System.arraycopy(more, 0, all, REQUIRED.length, more.length);
        return all;
    }

    @Test
    void withoutTheFlagEveryCoreIsAnExecutionSlot() {
        OtmConfig c = OtmConfig.parse(with());
        assertEquals(0, c.batchesExecutingMax());
        assertEquals(Runtime.getRuntime().availableProcessors(), c.batchSlots());
        assertFalse(c.standalone());
    }

    @Test
    void theFlagSetsTheSlotsAndSurvivesJoiningACluster() {
        OtmConfig c = OtmConfig.parse(with("--batches-executing-max", "3", "--standalone"));
        assertEquals(3, c.batchSlots());
        assertTrue(c.standalone());
        assertEquals(3, c.inCluster().batchSlots());
        assertEquals(1, c.withBatchesExecutingMax(1).batchSlots());
    }

    @Test
    void badValuesAreRefusedNamingTheFlag() {
        for (String bad : new String[] {"-1", "1025", "two"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> OtmConfig.parse(with("--batches-executing-max", bad)));
            assertTrue(e.getMessage().contains("--batches-executing-max"), e.getMessage());
        }
    }

    @Test
    void theMemtableBudgetIsAnEighthOfTheHeapUnlessSet() {
        OtmConfig defaults = OtmConfig.parse(with("--standalone"));
        assertEquals(Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 8), defaults.memtableBudget().capacityBytes());
        OtmConfig set = OtmConfig.parse(with("--memtable-budget-mb", "300"));
        assertEquals(300L << 20, set.memtableBudget().capacityBytes());
        assertEquals(300L << 20, set.inCluster().withBatchesExecutingMax(2).memtableBudget().capacityBytes());
        for (String bad : new String[] {"-1", "1048577", "lots"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> OtmConfig.parse(with("--memtable-budget-mb", bad)));
            assertTrue(e.getMessage().contains("--memtable-budget-mb"), e.getMessage());
        }
    }
}
