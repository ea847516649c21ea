package org.elastras.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/** What every benchmark needs around its figures: JSON string literals, the logs and scratch-directory cleanup. Stateless. */
public final class ResultFiles {

    private ResultFiles() {
    }

    /** {@code s} as a JSON string literal, quotes included. */
    public static String jsonString(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                default -> {
                    if (c < 0x20) {
                        q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }

    /**
     * Copies every {@code .log} file below {@code root} to the same relative path below {@code to}
     * (the processes' logs of a run, kept beside its figures before its scratch directory goes).
     *
     * @return how many files were copied
     */
    public static int copyLogs(Path root, Path to) throws IOException {
        if (!Files.exists(root)) {
            return 0;
        }
        int copied = 0;
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(".log")).toList()) {
                Path target = to.resolve(root.relativize(p).toString());
                Files.createDirectories(target.getParent());
                Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                copied++;
            }
        }
        return copied;
    }

    /** Deletes {@code root} and everything below it; nothing if it does not exist. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
