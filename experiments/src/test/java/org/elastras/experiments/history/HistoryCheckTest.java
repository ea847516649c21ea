package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.append;
import static org.elastras.experiments.history.HistoryBuilder.readList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's exit codes: 0 valid, 1 anomalies, 2 bad input. */
class HistoryCheckTest {

    @TempDir
    Path directory;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return HistoryCheck.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private Path save(History history) throws IOException {
        Path file = directory.resolve("history.jsonl");
        HistoryJsonLines.write(history, file);
        return file;
    }

    @Test
    void aValidHistoryExitsZero() throws IOException {
        Path file = save(HistoryBuilder.serializable().ok(0, append("x", 1)).ok(1, readList("x", 1)).build());
        assertEquals(HistoryCheck.EXIT_VALID, run(file.toString()));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("VALID for SERIALIZABLE"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aHistoryWithAnAnomalyExitsOneAndPrintsTheCycle() throws IOException {
        Path file = save(HistoryBuilder.snapshot().ok(0, append("x", 1), append("y", 1)).ok(1, readList("x"), readList("y", 1))
                .ok(2, readList("x", 1)).build());
        assertEquals(HistoryCheck.EXIT_ANOMALIES, run(file.toString(), "--anomalies-per-class", "3"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("INVALID for SNAPSHOT"), text);
        assertTrue(text.contains("T1 -rw(x)-> T0"), text);
        assertTrue(text.contains("T0 -wr(y)-> T1"), text);
    }

    @Test
    void badInputExitsTwo() throws IOException {
        assertEquals(HistoryCheck.EXIT_BAD_INPUT, run());
        assertEquals(HistoryCheck.EXIT_BAD_INPUT, run(directory.resolve("missing.jsonl").toString()));
        Path garbage = directory.resolve("garbage.jsonl");
        Files.writeString(garbage, "{\"format\":\"elastras-history\"\n");
        assertEquals(HistoryCheck.EXIT_BAD_INPUT, run(garbage.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("line 1"), err.toString(StandardCharsets.UTF_8));
        Path file = save(HistoryBuilder.serializable().ok(0, append("x", 1)).build());
        assertEquals(HistoryCheck.EXIT_BAD_INPUT, run(file.toString(), "--anomalies-per-class", "zero"));
        assertEquals(HistoryCheck.EXIT_BAD_INPUT, run(file.toString(), "--verbose", "1"));
    }
}
