package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.append;
import static org.elastras.experiments.history.HistoryBuilder.read;
import static org.elastras.experiments.history.HistoryBuilder.readList;
import static org.elastras.experiments.history.HistoryBuilder.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.elastras.experiments.history.SimulatedDatabase.Config;
import org.elastras.experiments.history.SimulatedDatabase.Fault;
import org.elastras.experiments.history.SimulatedDatabase.Mode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HistoryJsonLinesTest {

    private static final String HEADER = "{\"format\":\"elastras-history\",\"version\":1,\"isolation\":\"SNAPSHOT\",\"truncated\":false}\n";

    private static String text(History history) throws IOException {
        StringWriter out = new StringWriter();
        HistoryJsonLines.write(history, out);
        return out.toString();
    }

    private static History parse(String text) throws IOException {
        return HistoryJsonLines.read(new StringReader(text), 1_000);
    }

    @Test
    void everyKindOfOpAndOutcomeSurvivesARoundTrip() throws IOException {
        History history = new HistoryBuilder(IsolationLevel.SNAPSHOT).okAt(1, 3L, 7L, append("x", 1), readList("x", 1), write("r", 5), read("r", 5L))
                .ok(2, readList("x"), read("r", null)).fail(3, append("x", -9)).unknown(1, MicroOp.ReadList.unobserved("x"),
                        MicroOp.ReadRegister.unobserved("r"), write("r", Long.MAX_VALUE))
                .build();
        History truncated = new History(history.isolation(), history.transactions(), true);
        assertEquals(truncated, parse(text(truncated)));
        assertEquals(history, parse(text(history)));
    }

    @Test
    void aSimulatedHistoryRoundTripsThroughAFileAndChecksTheSame(@TempDir Path directory) throws IOException {
        History history = SimulatedDatabase.run(Config.of(9, 500, Mode.SNAPSHOT, Fault.NO_FIRST_UPDATER_WINS, IsolationLevel.SNAPSHOT)).history();
        Path file = directory.resolve("history.jsonl");
        HistoryJsonLines.write(history, file);
        History back = HistoryJsonLines.read(file, 1_000);
        assertEquals(history, back);
        HistoryChecker checker = new HistoryChecker();
        assertEquals(checker.check(history), checker.check(back));
    }

    @Test
    void aMissingObservedFieldMeansObserved() throws IOException {
        History history = parse(HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,"
                + "\"ops\":[{\"f\":\"read\",\"k\":\"r\",\"v\":null}]}\n\n");
        assertEquals(List.of(read("r", null)), history.transactions().get(0).ops());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "{\"format\":\"other\",\"version\":1,\"isolation\":\"SNAPSHOT\",\"truncated\":false}\n",
        "{\"format\":\"elastras-history\",\"version\":2,\"isolation\":\"SNAPSHOT\",\"truncated\":false}\n",
        "{\"format\":\"elastras-history\",\"version\":1,\"isolation\":\"LINEARIZABLE\",\"truncated\":false}\n",
        "{\"format\":\"elastras-history\",\"version\":1,\"isolation\":\"SNAPSHOT\"}\n",
        "not json\n",
        HEADER + "[1,2]\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":1}],\"extra\":1}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"MAYBE\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":1}]}\n",
        HEADER + "{\"id\":\"zero\",\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":1}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":1.5}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":99999999999999999999}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"cas\",\"k\":\"x\",\"v\":1}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"v\":1}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"read-list\",\"k\":\"x\",\"v\":null}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"read-list\",\"k\":\"x\",\"v\":[\"a\"]}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":5,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":1}]}\n",
        HEADER + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":1}]}\n"
                + "{\"id\":0,\"process\":1,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":2}]}\n",
    })
    void badInputIsAFormatErrorNamingTheProblem(String text) {
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> parse(text));
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
    }

    @Test
    void errorsNameTheLine() {
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> parse(HEADER
                + "{\"id\":0,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":0,\"completeNanos\":1,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":1}]}\n"
                + "{\"id\":1,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":2,\"completeNanos\":3,\"ops\":[{\"f\":\"apend\",\"k\":\"x\",\"v\":2}]}\n"));
        assertTrue(e.getMessage().startsWith("line 3:"), e.getMessage());
    }

    @Test
    void moreTransactionsThanTheBoundAreRefused() {
        String line = "{\"id\":%d,\"process\":0,\"outcome\":\"OK\",\"invokeNanos\":%d,\"completeNanos\":%d,\"ops\":[{\"f\":\"append\",\"k\":\"x\",\"v\":%d}]}\n";
        String text = HEADER + String.format(line, 0, 0, 1, 0) + String.format(line, 1, 2, 3, 1);
        assertThrows(HistoryFormatException.class, () -> HistoryJsonLines.read(new StringReader(text), 1));
    }
}
