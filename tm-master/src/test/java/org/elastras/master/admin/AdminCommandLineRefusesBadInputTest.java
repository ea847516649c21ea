package org.elastras.master.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.elastras.master.AdminMain;
import org.junit.jupiter.api.Test;

/**
 * The admin commands refuse bad command lines with exit code 2 and a message naming what was wrong,
 * before connecting to anything (the ZooKeeper address given here does not exist); {@code --help}
 * prints the command's usage and exits 0.
 */
class AdminCommandLineRefusesBadInputTest {

    /** A command's exit code and what it printed. */
    record Ran(int exitCode, String out, String err) {
    }

    static Ran run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = AdminMain.run(args, o, e);
        }
        return new Ran(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertRefused(String expectedInErr, String... args) {
        Ran ran = run(args);
        assertEquals(AdminMain.EXIT_USAGE, ran.exitCode(), String.join(" ", args) + " -> " + ran);
        assertTrue(ran.err().contains(expectedInErr), String.join(" ", args) + " -> " + ran.err());
        assertEquals("", ran.out(), "a refused command printed on stdout");
    }

    @Test
    void badCommandLinesExitWithTwoAndSayWhatIsWrong() {
        assertRefused("usage: elastras <move|drain|balance|partitions>");
        assertRefused("unknown admin command 'frobnicate'", "frobnicate");
        assertRefused("elastras move: PARTITION_ID must be a number, got 'x'", "move", "--zk", "nowhere:1", "x", "otm-1");
        assertRefused("PARTITION_ID must be 1 or more, got 0", "move", "--zk", "nowhere:1", "0", "otm-1");
        assertRefused("expected PARTITION_ID and TO_OTM, got 3", "move", "--zk", "nowhere:1", "3");
        assertRefused("expected PARTITION_ID and TO_OTM, got 3 otm-1 otm-2", "move", "--zk", "nowhere:1", "3", "otm-1",
                "otm-2");
        assertRefused("--zk is required", "move", "3", "otm-1");
        assertRefused("missing value after --zk", "move", "--zk");
        assertRefused("--timeout-ms needs a number of milliseconds, got 'soon'", "move", "--zk", "nowhere:1",
                "--timeout-ms", "soon", "3", "otm-1");
        assertRefused("--timeout-ms must be 1 to", "drain", "--zk", "nowhere:1", "--timeout-ms", "0", "otm-1");
        assertRefused("expected OTM_ID, got none", "drain", "--zk", "nowhere:1", "--stop");
        assertRefused("unknown option '--bogus'", "drain", "--zk", "nowhere:1", "otm-1", "--bogus");
        assertRefused("only --dry-run is supported", "balance", "--zk", "nowhere:1");
        assertRefused("unknown option '--stop'", "balance", "--zk", "nowhere:1", "--dry-run", "--stop");
        assertRefused("expected no arguments, got extra", "partitions", "--zk", "nowhere:1", "extra");
        assertRefused("--root 'no-slash' is not a znode path", "partitions", "--zk", "nowhere:1", "--root", "no-slash");
    }

    @Test
    void helpPrintsEachCommandsUsageAndExitsZero() {
        for (String command : new String[] {"move", "drain", "balance", "partitions"}) {
            Ran ran = run(command, "--help");
            assertEquals(AdminMain.EXIT_OK, ran.exitCode(), ran.toString());
            assertTrue(ran.out().startsWith("usage: elastras " + command + " --zk CONNECT"), ran.out());
            assertTrue(ran.out().contains("--root PATH"), ran.out());
            assertEquals("", ran.err());
        }
        Ran all = run("--help");
        assertEquals(AdminMain.EXIT_OK, all.exitCode());
        assertTrue(all.out().contains("balance --dry-run"), all.out());
        assertTrue(run("drain", "--help").out().contains("--no-wait"));
        assertTrue(run("move", "--help").out().contains("--timeout-ms MS"));
    }
}
