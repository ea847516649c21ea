package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The JIT share of a run's CPU split comes from the JVMs' compiler threads, read from /proc. */
@EnabledOnOs(OS.LINUX)
class ProcessCpuCountsJitCompilerThreadsTest {

    @Test
    void aJvmsCompilerThreadsHaveUsedSomeOfItsCpuAndNoMore() {
        // By the time a test runs, this JVM has compiled the test framework's hot methods.
        double jit = ProcessCpu.thisJvmJitSeconds();
        double all = ProcessCpu.seconds(ProcessHandle.current().pid());
        assertTrue(jit > 0, "JIT seconds " + jit);
        assertTrue(jit <= all, "JIT " + jit + " s of " + all + " s in all");
        assertEquals(jit, ProcessCpu.jitSeconds(ProcessHandle.current().pid()), 0.5);
    }

    @Test
    void aProcessThatIsNoJvmHasNoCompilerThreads() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "30").start();
        try {
            assertEquals(0.0, ProcessCpu.jitSeconds(sleep.pid()));
        } finally {
            sleep.destroy();
            sleep.waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aProcessThatIsGoneReadsAsNaN() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(10, TimeUnit.SECONDS));
        assertTrue(Double.isNaN(ProcessCpu.jitSeconds(gone.pid())));
    }
}
