package org.elastras.catalog.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ZkPathsTest {

    @Test
    void layoutUnderTheDefaultAndAConfiguredRoot() {
        ZkPaths d = ZkPaths.defaults();
        assertEquals("/elastras/master", d.master());
        assertEquals("/elastras/otms", d.otms());
        assertEquals("/elastras/otms/otm-3.host_a", d.otm("otm-3.host_a"));
        assertEquals("/elastras/root", d.rootPartition());
        assertEquals("/elastras/ts", d.ts());
        assertEquals("/test/run-7/master", new ZkPaths("/test/run-7").master());
    }

    @Test
    void badRootsAndIdsAreRefused() {
        for (String bad : new String[] {"elastras", "/", "/a/", "//a", "/a/../b", "/a b", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ZkPaths(bad), bad);
            assertTrue(e.getMessage().contains("ZooKeeper root"), e.getMessage());
        }
        for (String bad : new String[] {"", ".", "..", "a/b", "x".repeat(129)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ZkPaths.defaults().otm(bad), bad);
            assertTrue(e.getMessage().contains("OTM id"), e.getMessage());
        }
    }
}
