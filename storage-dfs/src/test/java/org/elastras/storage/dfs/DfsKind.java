package org.elastras.storage.dfs;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The real DFS implementations every storage test runs against: use with
 * {@code @ParameterizedTest @EnumSource(DfsKind.class)}.
 */
public enum DfsKind {
    LOCAL {
        @Override
        public Dfs open(Path tempDirectory) throws IOException {
            return LocalDfs.open(tempDirectory.resolve("dfs"));
        }
    },
    HDFS {
        @Override
        public Dfs open(Path tempDirectory) throws IOException {
            return MiniHdfs.shared().newDfs();
        }
    };

    /** A fresh, empty DFS root of this kind. */
    public abstract Dfs open(Path tempDirectory) throws IOException;
}
