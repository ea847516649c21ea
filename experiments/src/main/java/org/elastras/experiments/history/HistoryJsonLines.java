package org.elastras.experiments.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Writes a {@link History} as JSON lines and reads it back, so that a history that failed a check
 * can be kept as an artifact and checked again. Stateless; safe from any thread.
 *
 * <p>Layout, one JSON object per line, UTF-8:
 * <pre>
 * line 1:  {"format":"elastras-history","version":1,"isolation":"SERIALIZABLE","truncated":false}
 * line 2+: {"id":7,"process":2,"outcome":"OK","invokeNanos":100,"completeNanos":250,
 *           "snapshot":41,"cts":45,                  (both optional; absent or null if not reported)
 *           "ops":[{"f":"append","k":"x","v":3},
 *                  {"f":"read-list","k":"x","v":[1,3]},      (v null: unobserved)
 *                  {"f":"write","k":"r","v":9},
 *                  {"f":"read","k":"r","v":null}]}           (v null: read the initial state;
 *                                                             "observed":false: unobserved)
 * </pre>
 * Unknown fields are errors, so that a typo does not silently change a verdict.
 */
public final class HistoryJsonLines {

    public static final String FORMAT = "elastras-history";
    public static final int VERSION = 1;

    /** Longest line accepted, in characters: bounds what one bad line can cost. */
    public static final int LINE_CHARS_MAX = 64 * 1024 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> HEADER_FIELDS = Set.of("format", "version", "isolation", "truncated");
    private static final Set<String> TRANSACTION_FIELDS =
            Set.of("id", "process", "outcome", "invokeNanos", "completeNanos", "snapshot", "cts", "ops");
    private static final Set<String> OP_FIELDS = Set.of("f", "k", "v", "observed");

    private HistoryJsonLines() {
    }

    public static void write(History history, Writer out) throws IOException {
        ObjectNode header = MAPPER.createObjectNode();
        header.put("format", FORMAT);
        header.put("version", VERSION);
        header.put("isolation", history.isolation().name());
        header.put("truncated", history.truncated());
        out.write(MAPPER.writeValueAsString(header));
        out.write('\n');
        for (Transaction transaction : history.transactions()) {
            out.write(MAPPER.writeValueAsString(toJson(transaction)));
            out.write('\n');
        }
        out.flush();
    }

    public static void write(History history, Path file) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(history, out);
        }
    }

    /**
     * Reads a history of at most {@code transactionsMax} transactions.
     *
     * @throws HistoryFormatException if the text is not a valid history, naming the line
     */
    public static History read(Reader in, int transactionsMax) throws IOException {
        if (transactionsMax < 0) {
            throw new IllegalArgumentException("transactionsMax must be >= 0, got " + transactionsMax);
        }
        BufferedReader lines = in instanceof BufferedReader buffered ? buffered : new BufferedReader(in);
        String headerLine = lines.readLine();
        if (headerLine == null) {
            throw new HistoryFormatException("empty history: expected a header line {\"format\":\"" + FORMAT + "\",...}");
        }
        JsonNode header = parse(headerLine, 1);
        checkFields(header, HEADER_FIELDS, 1);
        if (!FORMAT.equals(header.path("format").asText(null))) {
            throw new HistoryFormatException("line 1: not an " + FORMAT + " file (format field is " + header.get("format") + ")");
        }
        if (header.path("version").asInt(-1) != VERSION) {
            throw new HistoryFormatException("line 1: unsupported version " + header.get("version") + ", this reader knows " + VERSION);
        }
        IsolationLevel isolation = enumField(header, "isolation", IsolationLevel.class, 1);
        JsonNode truncatedNode = header.get("truncated");
        if (truncatedNode == null || !truncatedNode.isBoolean()) {
            throw new HistoryFormatException("line 1: truncated must be true or false");
        }
        List<Transaction> transactions = new ArrayList<>();
        String line;
        int lineNumber = 1;
        while ((line = lines.readLine()) != null) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            if (transactions.size() >= transactionsMax) {
                throw new HistoryFormatException("line " + lineNumber + ": more than " + transactionsMax + " transactions");
            }
            transactions.add(toTransaction(parse(line, lineNumber), lineNumber));
        }
        try {
            return new History(isolation, transactions, truncatedNode.booleanValue());
        } catch (IllegalArgumentException e) {
            throw new HistoryFormatException("inconsistent history: " + e.getMessage(), e);
        }
    }

    public static History read(Path file, int transactionsMax) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(in, transactionsMax);
        }
    }

    private static ObjectNode toJson(Transaction transaction) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", transaction.id());
        node.put("process", transaction.process());
        node.put("outcome", transaction.outcome().name());
        node.put("invokeNanos", transaction.invokeNanos());
        node.put("completeNanos", transaction.completeNanos());
        if (transaction.snapshotTimestamp() != null) {
            node.put("snapshot", transaction.snapshotTimestamp());
        }
        if (transaction.commitTimestamp() != null) {
            node.put("cts", transaction.commitTimestamp());
        }
        ArrayNode ops = node.putArray("ops");
        for (MicroOp op : transaction.ops()) {
            ObjectNode opNode = ops.addObject();
            if (op instanceof MicroOp.Append append) {
                opNode.put("f", "append").put("k", append.key()).put("v", append.value());
            } else if (op instanceof MicroOp.ReadList read) {
                opNode.put("f", "read-list").put("k", read.key());
                if (read.observed()) {
                    ArrayNode values = opNode.putArray("v");
                    read.values().forEach(values::add);
                } else {
                    opNode.putNull("v");
                }
            } else if (op instanceof MicroOp.Write write) {
                opNode.put("f", "write").put("k", write.key()).put("v", write.value());
            } else {
                MicroOp.ReadRegister read = (MicroOp.ReadRegister) op;
                opNode.put("f", "read").put("k", read.key());
                if (read.value() == null) {
                    opNode.putNull("v");
                } else {
                    opNode.put("v", read.value());
                }
                if (!read.observed()) {
                    opNode.put("observed", false);
                }
            }
        }
        return node;
    }

    private static Transaction toTransaction(JsonNode node, int line) throws HistoryFormatException {
        checkFields(node, TRANSACTION_FIELDS, line);
        long id = longField(node, "id", line);
        long process = longField(node, "process", line);
        if (process < 0 || process > Integer.MAX_VALUE) {
            throw new HistoryFormatException("line " + line + ": process must be 0 to " + Integer.MAX_VALUE + ", got " + process);
        }
        Outcome outcome = enumField(node, "outcome", Outcome.class, line);
        long invokeNanos = longField(node, "invokeNanos", line);
        long completeNanos = longField(node, "completeNanos", line);
        Long snapshot = optionalLongField(node, "snapshot", line);
        Long cts = optionalLongField(node, "cts", line);
        JsonNode opsNode = node.get("ops");
        if (opsNode == null || !opsNode.isArray()) {
            throw new HistoryFormatException("line " + line + ": ops must be an array");
        }
        List<MicroOp> ops = new ArrayList<>(opsNode.size());
        for (JsonNode opNode : opsNode) {
            ops.add(toOp(opNode, line));
        }
        try {
            return new Transaction(id, (int) process, ops, outcome, invokeNanos, completeNanos, snapshot, cts);
        } catch (IllegalArgumentException e) {
            throw new HistoryFormatException("line " + line + ": " + e.getMessage(), e);
        }
    }

    private static MicroOp toOp(JsonNode node, int line) throws HistoryFormatException {
        if (!node.isObject()) {
            throw new HistoryFormatException("line " + line + ": each op must be an object, got " + node);
        }
        checkFields(node, OP_FIELDS, line);
        JsonNode keyNode = node.get("k");
        if (keyNode == null || !keyNode.isTextual()) {
            throw new HistoryFormatException("line " + line + ": op " + node + " needs a string key k");
        }
        String key = keyNode.textValue();
        String function = node.path("f").asText("");
        JsonNode value = node.get("v");
        try {
            switch (function) {
                case "append":
                    return new MicroOp.Append(key, longValue(value, node, line));
                case "write":
                    return new MicroOp.Write(key, longValue(value, node, line));
                case "read-list": {
                    if (value == null || value.isNull()) {
                        return MicroOp.ReadList.unobserved(key);
                    }
                    if (!value.isArray()) {
                        throw new HistoryFormatException("line " + line + ": read-list value must be an array or null in " + node);
                    }
                    List<Long> values = new ArrayList<>(value.size());
                    for (JsonNode element : value) {
                        values.add(longValue(element, node, line));
                    }
                    return new MicroOp.ReadList(key, values);
                }
                case "read": {
                    JsonNode observedNode = node.get("observed");
                    if (observedNode != null && !observedNode.isBoolean()) {
                        throw new HistoryFormatException("line " + line + ": observed must be true or false in " + node);
                    }
                    boolean observed = observedNode == null || observedNode.booleanValue();
                    Long read = value == null || value.isNull() ? null : longValue(value, node, line);
                    return new MicroOp.ReadRegister(key, read, observed);
                }
                default:
                    throw new HistoryFormatException("line " + line + ": unknown op f=\"" + function
                            + "\" (expected append, read-list, write or read) in " + node);
            }
        } catch (IllegalArgumentException e) {
            throw new HistoryFormatException("line " + line + ": " + e.getMessage(), e);
        }
    }

    private static JsonNode parse(String line, int lineNumber) throws HistoryFormatException {
        if (line.length() > LINE_CHARS_MAX) {
            throw new HistoryFormatException("line " + lineNumber + ": longer than " + LINE_CHARS_MAX + " characters");
        }
        try {
            JsonNode node = MAPPER.readTree(line);
            if (node == null || !node.isObject()) {
                throw new HistoryFormatException("line " + lineNumber + ": expected a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new HistoryFormatException("line " + lineNumber + ": not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static void checkFields(JsonNode node, Set<String> known, int line) throws HistoryFormatException {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                throw new HistoryFormatException("line " + line + ": unknown field \"" + name + "\" (known: " + known + ")");
            }
        }
    }

    private static long longField(JsonNode node, String field, int line) throws HistoryFormatException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new HistoryFormatException("line " + line + ": " + field + " must be an integer, got " + value);
        }
        return value.longValue();
    }

    private static Long optionalLongField(JsonNode node, String field, int line) throws HistoryFormatException {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : longField(node, field, line);
    }

    private static long longValue(JsonNode value, JsonNode op, int line) throws HistoryFormatException {
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new HistoryFormatException("line " + line + ": values must be integers, got " + value + " in " + op);
        }
        return value.longValue();
    }

    private static <E extends Enum<E>> E enumField(JsonNode node, String field, Class<E> type, int line) throws HistoryFormatException {
        JsonNode value = node.get(field);
        if (value != null && value.isTextual()) {
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(value.textValue())) {
                    return constant;
                }
            }
        }
        throw new HistoryFormatException("line " + line + ": " + field + " must be one of "
                + java.util.Arrays.toString(type.getEnumConstants()) + ", got " + value);
    }
}
