package org.elastras.storage.dfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DfsContractTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void writtenBytesAreReadBackAtAnyPosition(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            byte[] data = new byte[200_000];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (i * 31 + 7);
            }
            try (DfsOutput out = dfs.create("a/b/file")) {
                out.write(data, 0, 100_000);
                out.flush();
                assertEquals(100_000, out.position());
                out.write(data, 100_000, 100_000);
                out.sync();
                assertEquals(200_000, out.position());
            }
            assertEquals(200_000, dfs.length("a/b/file"));
            try (DfsFile in = dfs.open("a/b/file")) {
                assertEquals(200_000, in.length());
                assertArrayEquals(java.util.Arrays.copyOfRange(data, 12_345, 12_345 + 70_000), in.readFully(12_345, 70_000));
                assertEquals(-1, in.read(200_000, new byte[10], 0, 10));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void syncedBytesAreVisibleToAReaderWhileTheWriterIsOpen(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            DfsOutput out = dfs.create("open-file");
            out.write("hello".getBytes(StandardCharsets.UTF_8));
            out.sync();
            try (DfsFile in = dfs.open("open-file")) {
                assertEquals(5, in.length());
                assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), in.readFully(0, 5));
            }
            out.close();
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void createNeverOverwritesAndRenameNeverReplaces(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            try (DfsOutput out = dfs.create("x")) {
                out.write(new byte[] {1});
            }
            try (DfsOutput out = dfs.create("y")) {
                out.write(new byte[] {2, 2});
            }
            assertThrows(FileAlreadyExistsException.class, () -> dfs.create("x"));
            assertThrows(FileAlreadyExistsException.class, () -> dfs.rename("x", "y"));
            assertThrows(FileNotFoundException.class, () -> dfs.rename("nope", "z"));
            assertEquals(2, dfs.length("y"));
            dfs.rename("x", "dir/z");
            assertFalse(dfs.exists("x"));
            assertEquals(1, dfs.length("dir/z"));
            assertEquals(List.of("dir", "y"), dfs.list(""));
            assertEquals(List.of("z"), dfs.list("dir"));
            assertEquals(List.of(), dfs.list("missing"));
            assertTrue(dfs.delete("dir"));
            assertFalse(dfs.delete("dir"));
            assertThrows(FileNotFoundException.class, () -> dfs.open("dir/z"));
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aFileWhoseNameIsMadeDurableLaterIsAFileLikeAnyOther(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            try (DfsOutput out = dfs.createNamedLater("d/table")) {
                out.write(new byte[] {1, 2, 3});
                out.sync();
            }
            assertThrows(FileAlreadyExistsException.class, () -> dfs.createNamedLater("d/table"));
            assertEquals(List.of("table"), dfs.list("d"));
            try (DfsFile in = dfs.open("d/table")) {
                assertArrayEquals(new byte[] {1, 2, 3}, in.readFully(0, 3));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void pathsThatEscapeTheRootAreRejected(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            assertThrows(IllegalArgumentException.class, () -> dfs.create("../etc/passwd"));
            assertThrows(IllegalArgumentException.class, () -> dfs.open("a/../../b"));
            assertThrows(IllegalArgumentException.class, () -> dfs.list("a//b"));
        }
    }

    @Test
    void unknownSchemeIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Dfs.open(URI.create("s3://bucket/x")));
        assertTrue(e.getMessage().contains("unknown DFS scheme 's3'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Dfs.open(URI.create("relative/path")));
    }

    @Test
    void unreachableHdfsIsAClearErrorWithinSeconds() {
        long start = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> Dfs.open(URI.create("hdfs://127.0.0.1:1/elastras")));
        assertTrue(e.getMessage().contains("cannot reach HDFS at hdfs://127.0.0.1:1/elastras"), e.getMessage());
        assertTrue(System.nanoTime() - start < 60_000_000_000L, "gave up within a minute");
    }

    @Test
    void localDfsOpensByFileUri() throws IOException {
        try (Dfs dfs = Dfs.open(temp.resolve("by-uri").toUri())) {
            assertTrue(dfs instanceof LocalDfs);
            try (DfsOutput out = dfs.create("f")) {
                out.write(new byte[3]);
            }
            assertEquals(3, dfs.length("f"));
        }
    }

    @Test
    void memoryDfsCrashLosesExactlyTheUnsyncedBytes() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        DfsOutput out = dfs.create("w");
        out.write(new byte[] {1, 2, 3});
        out.sync();
        out.write(new byte[] {4, 5});
        out.flush();
        assertEquals(5, dfs.length("w"));
        dfs.crash();
        assertEquals(3, dfs.length("w"));
        dfs.failWrites(true);
        assertThrows(IOException.class, () -> out.write(new byte[] {9}));
    }

    @Test
    void memoryDfsCrashLosesANameNotYetMadeDurableByARenameIntoItsDirectory() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        for (String path : List.of("d/table-1", "d/manifest.tmp", "e/elsewhere")) {
            try (DfsOutput out = dfs.createNamedLater(path)) {
                out.write(new byte[] {7});
                out.sync();
            }
        }
        dfs.crash();
        assertEquals(List.of(), dfs.list("d"), "synced bytes, but no durable name");

        for (String path : List.of("d/table-2", "d/manifest.tmp", "e/elsewhere", "d/sub/deeper")) {
            try (DfsOutput out = dfs.createNamedLater(path)) {
                out.write(new byte[] {7});
                out.sync();
            }
        }
        dfs.rename("d/manifest.tmp", "d/manifest");
        dfs.crash();
        assertEquals(List.of("manifest", "table-2"), dfs.list("d"), "the rename made every name in d durable, not d/sub's");
        assertEquals(1, dfs.length("d/table-2"));
        assertFalse(dfs.exists("e/elsewhere"), "a rename into d makes no name in e durable");
    }
}
