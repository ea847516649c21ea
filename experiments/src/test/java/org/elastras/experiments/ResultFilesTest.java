package org.elastras.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultFilesTest {

    @Test
    void copyLogsKeepsEveryLogAtItsRelativePathAndNothingElse(@TempDir Path dir) throws Exception {
        Path scratch = dir.resolve("scratch");
        Files.createDirectories(scratch.resolve("elastras-1/logs"));
        Files.writeString(scratch.resolve("elastras-1/logs/otm-1.log"), "otm one");
        Files.writeString(scratch.resolve("elastras-1/logs/master-1.log"), "master");
        Files.writeString(scratch.resolve("elastras-1/data.sst"), "not a log");
        Path out = dir.resolve("out/logs");

        assertEquals(2, ResultFiles.copyLogs(scratch, out));
        assertEquals("otm one", Files.readString(out.resolve("elastras-1/logs/otm-1.log")));
        assertEquals("master", Files.readString(out.resolve("elastras-1/logs/master-1.log")));
        assertFalse(Files.exists(out.resolve("elastras-1/data.sst")));

        ResultFiles.deleteTree(scratch);
        assertFalse(Files.exists(scratch));
        assertTrue(Files.exists(out.resolve("elastras-1/logs/otm-1.log")));
        assertEquals(0, ResultFiles.copyLogs(scratch, out));
    }
}
