package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys the environment says have expired lose every version at compaction, and only those. */
class CompactionDropsExpiredKeysTest {

    @TempDir
    Path temp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void expiredKeysAreReadableUntilACompactionDropsThem() throws IOException {
        AtomicBoolean expiredNow = new AtomicBoolean();
        StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0,
                key -> expiredNow.get() && key[0] == '~');
        try (Dfs dfs = DfsKind.LOCAL.open(temp)) {
            PartitionStore store = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            store.finishRecovery(new TestWalCursor("w", WalPosition.START));
            store.apply("w", new WalPosition(1, 0), List.of(new Version(b("~marker"), 5, b("m")),
                    new Version(b("row"), 5, b("r5")), new Version(b("row"), 7, b("r7"))));
            store.flush();
            store.apply("w", new WalPosition(1, 100), List.of(new Version(b("~other"), 8, b("o"))));
            store.flush();

            store.compact(0);
            assertArrayEquals(b("m"), store.get(b("~marker"), Long.MAX_VALUE), "not expired yet: kept");

            expiredNow.set(true);
            assertArrayEquals(b("m"), store.get(b("~marker"), Long.MAX_VALUE), "expired but not compacted: readable");
            store.apply("w", new WalPosition(1, 200), List.of(new Version(b("row"), 9, b("r9"))));
            store.flush();
            store.compact(0);
            assertNull(store.get(b("~marker"), Long.MAX_VALUE));
            assertNull(store.get(b("~other"), Long.MAX_VALUE));
            assertArrayEquals(b("r9"), store.get(b("row"), Long.MAX_VALUE), "other keys untouched");
            assertArrayEquals(b("r5"), store.get(b("row"), 6), "and their versions above the horizon 0 too");
            store.close();
        }
    }
}
