package org.elastras.otm.txn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.row.RowCodec;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.util.ByteSink;
import org.elastras.storage.util.ByteSource;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.CorruptionException;

/**
 * The published copies of global tables on the DFS, one file per (database, table), written once
 * by the OTM that took the load and read by every OTM that needs the table (a partition's new
 * owner after a move or a failover included). Layout ({@code docs/global-table-format.md}):
 *
 * <pre>
 * global/&lt;database&gt;/&lt;table&gt;/TABLE            the published table (never replaced)
 * global/&lt;database&gt;/&lt;table&gt;/TABLE-&lt;load&gt;.tmp  being written; renamed to TABLE once synced
 *
 * file    := magic u32 "EGT1" | record* | footer
 * record  := payloadLength u32 (&lt; 2^31 - 1) | crc32c(payload) u32 | payload
 * payload := keyLength varint | key | value            (RowCodec's key and value encodings)
 * footer  := 0xFFFFFFFF u32 | rows u64 | crc32c(rows u64) u32
 * </pre>
 * Records are in ascending key order, no key twice; a reader checks every checksum, the order and
 * the row count, and any mismatch is a {@link CorruptionException} naming the file and offset.
 *
 * <p>Stateless apart from the DFS handle; safe to call from any thread (a {@link Dfs} is).
 */
public final class GlobalTableFiles {

    static final int MAGIC = 0x45475431; // "EGT1"
    static final int FOOTER_MARKER = 0xFFFFFFFF;
    static final String PUBLISHED = "TABLE";
    /** Largest file read back: bounds memory when a length is corrupt (10M rows of ~100 bytes fit). */
    static final long FILE_BYTES_MAX = 2L << 30;
    /** Bytes buffered before a write to the DFS. */
    private static final int WRITE_BUFFER_BYTES = 1 << 20;

    private final Dfs dfs;

    public GlobalTableFiles(Dfs dfs) {
        if (dfs == null) {
            throw new IllegalArgumentException("dfs is null");
        }
        this.dfs = dfs;
    }

    /** {@code global/<database>/<table>}, names canonical. */
    static String directory(String database, String table) {
        return Dfs.join("global", Names.canonical(database), Names.canonical(table));
    }

    /** Whether the table has been published. */
    boolean exists(String database, TableSchema table) throws IOException {
        return dfs.exists(Dfs.join(directory(database, table.name()), PUBLISHED));
    }

    /**
     * Writes {@code rows} (encoded key -> row in column order, normalized) as the table's one
     * published file: to a temporary file, synced, then renamed. Returns false, leaving nothing
     * behind, when the table is already published (by this or another OTM); a rename never replaces.
     *
     * @param loadId names the temporary file, so that two loads never write the same one
     */
    boolean publish(String database, TableSchema table, String loadId, NavigableMap<byte[], List<Object>> rows) throws IOException {
        String directory = directory(database, table.name());
        String published = Dfs.join(directory, PUBLISHED);
        if (dfs.exists(published)) {
            return false;
        }
        dfs.mkdirs(directory);
        String temporary = Dfs.join(directory, PUBLISHED + "-" + safe(loadId) + ".tmp");
        dfs.delete(temporary);
        RowCodec codec = new RowCodec(table);
        try (DfsOutput out = dfs.create(temporary)) {
            ByteSink sink = new ByteSink(WRITE_BUFFER_BYTES + 4096);
            sink.u32(MAGIC);
            ByteSink payload = new ByteSink(256);
            for (Map.Entry<byte[], List<Object>> e : rows.entrySet()) {
                byte[] value = codec.encodeValue(e.getValue());
                payload.reset();
                payload.varint(e.getKey().length).bytes(e.getKey()).bytes(value);
                sink.u32(payload.length()).u32(Checksums.crc32c(payload.array(), 0, payload.length()))
                        .bytes(payload.array(), 0, payload.length());
                if (sink.length() >= WRITE_BUFFER_BYTES) {
                    out.write(sink.array(), 0, sink.length());
                    sink.reset();
                }
            }
            byte[] count = new ByteSink(8).u64(rows.size()).toByteArray();
            sink.u32(FOOTER_MARKER).bytes(count).u32(Checksums.crc32c(count));
            out.write(sink.array(), 0, sink.length());
            out.sync();
        }
        try {
            dfs.rename(temporary, published);
        } catch (IOException e) {
            dfs.delete(temporary);
            if (dfs.exists(published)) {
                return false; // another OTM published it first
            }
            throw e;
        }
        return true;
    }

    /**
     * The published table as encoded key -> row (unmodifiable), or null if it is not published.
     *
     * @throws CorruptionException the file does not check out
     */
    NavigableMap<byte[], List<Object>> read(String database, TableSchema table, long rowsMax) throws IOException {
        String path = Dfs.join(directory(database, table.name()), PUBLISHED);
        if (!dfs.exists(path)) {
            return null;
        }
        byte[] bytes;
        try (DfsFile file = dfs.open(path)) {
            long length = file.length();
            if (length > FILE_BYTES_MAX || length < 4 + 16) {
                throw new CorruptionException(path, 0, "global table file length " + length + " is outside [20, " + FILE_BYTES_MAX + "]");
            }
            bytes = file.readFully(0, (int) length);
        }
        RowCodec codec = new RowCodec(table);
        TreeMap<byte[], List<Object>> rows = new TreeMap<>(KeyBytes::compare);
        ByteSource in = new ByteSource(bytes);
        byte[] previous = null;
        try {
            if (in.u32() != MAGIC) {
                throw new CorruptionException(path, 0, "not a global table file (bad magic)");
            }
            while (true) {
                int at = in.position();
                int length = in.u32();
                if (length == FOOTER_MARKER) {
                    byte[] count = in.bytes(8);
                    if (in.u32() != Checksums.crc32c(count)) {
                        throw new CorruptionException(path, at, "footer checksum mismatch");
                    }
                    long expected = new ByteSource(count).u64();
                    if (expected != rows.size() || in.remaining() != 0) {
                        throw new CorruptionException(path, at, "footer says " + expected + " rows, read " + rows.size()
                                + ", " + in.remaining() + " bytes after the footer");
                    }
                    return Collections.unmodifiableNavigableMap(rows);
                }
                int crc = in.u32();
                if (length < 0 || length > in.remaining()) {
                    throw new CorruptionException(path, at, "record length " + length + " exceeds the " + in.remaining() + " bytes left");
                }
                byte[] payload = in.bytes(length);
                if (Checksums.crc32c(payload) != crc) {
                    throw new CorruptionException(path, at, "record checksum mismatch");
                }
                ByteSource p = new ByteSource(payload);
                byte[] key = p.bytes(p.varintAtMost(payload.length, "key length"));
                byte[] value = p.bytes(p.remaining());
                if (previous != null && KeyBytes.compare(previous, key) >= 0) {
                    throw new CorruptionException(path, at, "keys out of order: " + KeyBytes.toHex(key) + " after " + KeyBytes.toHex(previous));
                }
                if (rows.size() >= rowsMax) {
                    throw new CorruptionException(path, at, "more than " + rowsMax + " rows (rowsPerTableMax)");
                }
                List<Object> row;
                try {
                    row = Collections.unmodifiableList(codec.decode(key, value));
                } catch (IllegalArgumentException e) {
                    throw new CorruptionException(path, at, "row does not decode as " + table.name() + ": " + e.getMessage());
                }
                rows.put(key, row);
                previous = key;
            }
        } catch (ByteSource.FormatException e) {
            throw new CorruptionException(path, in.position(), "truncated or malformed: " + e.getMessage());
        }
    }

    /** A load id as a file name part: letters, digits, '-' and '_' kept, anything else as '_'. */
    private static String safe(String loadId) {
        StringBuilder b = new StringBuilder();
        for (byte c : loadId.getBytes(StandardCharsets.UTF_8)) {
            b.append(Character.isLetterOrDigit(c) || c == '-' || c == '_' ? (char) c : '_');
        }
        return b.toString();
    }
}
