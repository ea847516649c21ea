package org.elastras.master.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dashboard page's files, read from the class path ({@code dashboard/}) once at start and
 * served from memory. Immutable.
 */
final class StaticFiles {

    /** A file's bytes and media type. */
    record File(String contentType, byte[] bytes) {
    }

    private static final Map<String, String> FILES = Map.of(
            "/index.html", "text/html; charset=utf-8",
            "/app.js", "text/javascript; charset=utf-8",
            "/app.css", "text/css; charset=utf-8");
    /** The page is small; a file past this is a packaging mistake. */
    private static final int FILE_BYTES_MAX = 1024 * 1024;

    private final Map<String, File> files;

    private StaticFiles(Map<String, File> files) {
        this.files = Map.copyOf(files);
    }

    /**
     * Loads every file of the page.
     *
     * @throws IllegalStateException if one is missing from the class path (a build mistake)
     */
    static StaticFiles load() throws IOException {
        Map<String, File> loaded = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : FILES.entrySet()) {
            String resource = "dashboard" + e.getKey();
            try (InputStream in = StaticFiles.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the dashboard's " + resource + " is not on the class path");
                }
                byte[] bytes = in.readNBytes(FILE_BYTES_MAX + 1);
                if (bytes.length > FILE_BYTES_MAX) {
                    throw new IllegalStateException(resource + " is over " + FILE_BYTES_MAX + " bytes");
                }
                loaded.put(e.getKey(), new File(e.getValue(), bytes));
            }
        }
        return new StaticFiles(loaded);
    }

    /** The file at {@code path}, or null. */
    File get(String path) {
        return files.get(path);
    }
}
