package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** bin/elastras tpcc's arguments: which targets run, at which isolation. */
class TpccCommandChoosesTheTargetsTest {

    @Test
    void serializableByDefaultAndSnapshotForEveryTargetThatHasIt() {
        assertEquals(List.of("elastras-cluster", "derby", "postgres-jdbc", "postgres-plpgsql"),
                TpccCommand.parse(new String[] {"--baseline", "derby,postgres"}).targets());
        assertEquals(List.of("elastras-cluster-si", "derby", "postgres-jdbc-si", "postgres-plpgsql-si"),
                TpccCommand.parse(new String[] {"--baseline", "derby,postgres", "--isolation", "snapshot"}).targets(),
                "Derby has no snapshot isolation and runs as always");
        assertEquals(List.of("elastras-cluster"), TpccCommand.parse(new String[] {"--isolation", "serializable"}).targets());
        for (String target : TpccCommand.parse(new String[] {"--baseline", "postgres", "--isolation", "snapshot"}).targets()) {
            assertTrue(TpccTargets.NAMES.contains(target), target + " is a known target");
        }
    }

    @Test
    void anUnknownIsolationIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TpccCommand.parse(new String[] {"--isolation", "read-committed"}));
        assertTrue(e.getMessage().contains("--isolation takes serializable or snapshot"), e.getMessage());
    }
}
