package org.elastras.catalog.meta;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.schema.Names;

/**
 * The catalog lookup "which partition holds root key K of database D", over an in-memory, sorted list
 * of catalog rows: the reference the served catalog's reverse seek must agree with. Immutable.
 */
public final class MetaLookup {

    private final List<MetaRow> rows;
    private final List<byte[]> keys;

    /**
     * A lookup over {@code rows}.
     *
     * @throws IllegalArgumentException unless the rows are in strictly increasing order of encoded key
     */
    public MetaLookup(List<MetaRow> rows) {
        this.rows = List.copyOf(rows);
        this.keys = new ArrayList<>(rows.size());
        for (MetaRow row : this.rows) {
            byte[] key = MetaRowCodec.encodeKey(row);
            if (!keys.isEmpty() && KeyBytes.compare(keys.get(keys.size() - 1), key) >= 0) {
                throw new IllegalArgumentException("catalog rows are not in strictly increasing key order at "
                        + row.partition() + "; sort them by encoded key");
            }
            keys.add(key);
        }
    }

    /**
     * The row of the partition of {@code database} whose range holds the encoded root key
     * {@code rootKey}: the last row below {@link MetaRowCodec#seekKey}, if it is of that database and
     * its range contains the key. Empty if no partition holds it (a hole, or no such database).
     * A single-partition database is looked up with the empty root key.
     */
    public Optional<MetaRow> locate(String database, byte[] rootKey) {
        byte[] seek = MetaRowCodec.seekKey(database, rootKey);
        int lo = 0;
        int hi = keys.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (seek.length == 0 || KeyBytes.compare(keys.get(mid), seek) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo == 0) {
            return Optional.empty();
        }
        MetaRow candidate = rows.get(lo - 1);
        if (!Names.same(candidate.partition().database(), database) || !candidate.partition().range().contains(rootKey)) {
            return Optional.empty();
        }
        return Optional.of(candidate);
    }

    /** The rows, in key order. */
    public List<MetaRow> rows() {
        return rows;
    }
}
