package org.elastras.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.dashboard.DashboardConfig;
import org.junit.jupiter.api.Test;

/** {@code --dashboard-port}, {@code --admin-token} and {@code --open-reads} on the master's command line. */
class MasterMainDashboardFlagsTest {

    private static final String[] BASE = {"--zk", "127.0.0.1:2181", "--dfs", "file:/tmp/dfs"};

    private static String[] with(String... more) {
        String[] all = new String[BASE.length + more.length];
        System.arraycopy(BASE, 0, all, 0, BASE.length);
        System.arraycopy(more, 0, all, BASE.length, more.length);
        return all;
    }

    @Test
    void noDashboardUnlessAPortIsGiven() {
        assertNull(MasterMain.parseDashboard(BASE, "127.0.0.1"));
        assertEquals("127.0.0.1:2181", MasterMain.parse(BASE).zkConnect());
    }

    @Test
    void dashboardFlagsAreParsedAndTheMasterFlagsStillWork() {
        String[] args = with("--dashboard-port", "8080", "--admin-token", "s3cret-token", "--open-reads", "--port", "7000");
        MasterConfig master = MasterMain.parse(args);
        assertEquals(7000, master.port());
        DashboardConfig d = MasterMain.parseDashboard(args, master.host());
        assertEquals(8080, d.port());
        assertEquals("s3cret-token", d.adminToken());
        assertTrue(d.openReads());
        DashboardConfig closed = MasterMain.parseDashboard(with("--dashboard-port", "0", "--admin-token", "s3cret-token"),
                "127.0.0.1");
        assertFalse(closed.openReads());
    }

    @Test
    void aDashboardNobodyCouldUseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> MasterMain.parseDashboard(with("--dashboard-port", "0"), "h"));
        assertThrows(IllegalArgumentException.class, () -> MasterMain.parseDashboard(with("--open-reads"), "h"));
        assertThrows(IllegalArgumentException.class,
                () -> MasterMain.parseDashboard(with("--dashboard-port", "0", "--admin-token", "short"), "h"));
        assertThrows(IllegalArgumentException.class, () -> MasterMain.parse(with("--dashboard-port")));
    }
}
