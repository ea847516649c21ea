package org.elastras.experiments.tpcc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract on Derby. The database is created and loaded once per class and shut down; every
 * test gets a fresh copy of its files (a cold copy of a shut-down Derby database is a valid one).
 * Derby runs with {@code derby.system.durability=test} here (no log sync), to keep the suite fast.
 */
class DerbyTpccTargetTest extends TpccTargetContract {

    private static final int PAGE_CACHE_PAGES = 4_096;

    @TempDir
    static Path templateDirectory;

    @BeforeAll
    static void loadTemplate() throws Exception {
        // Tests check logic, not durability: no log sync per commit (the benchmark keeps it).
        System.setProperty("derby.system.durability", "test");
        DerbyTpccTarget template = DerbyTpccTarget.create(templateDirectory.resolve("derby"), PAGE_CACHE_PAGES);
        try {
            load(template);
        } finally {
            template.close();
        }
    }

    @Override
    TpccTarget loadedTarget(Path directory) throws Exception {
        Path copy = directory.resolve("derby");
        Path from = templateDirectory.resolve("derby");
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path to = copy.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        } catch (IOException e) {
            throw new IOException("copying the template database failed", e);
        }
        return DerbyTpccTarget.open(copy, PAGE_CACHE_PAGES);
    }
}
