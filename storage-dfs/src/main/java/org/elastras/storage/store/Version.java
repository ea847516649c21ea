package org.elastras.storage.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * One version of one key: the value a transaction committed at commit timestamp {@code cts}, or
 * a tombstone ({@code value == null}) if it deleted the key. A version is identified by
 * (key, cts): applying the same version twice is a no-op everywhere in storage.
 *
 * <p>Immutable: the arrays are owned by the version and must not be changed after construction.
 */
public final class Version {

    /**
     * The order of versions in memtables and SSTables: key ascending (unsigned bytes), then CTS
     * descending, so that a seek to (key, snapshot) lands on the newest version visible at that
     * snapshot.
     */
    public static final Comparator<Version> ORDER = Version::compare;

    private final byte[] key;
    private final long cts;
    private final byte[] value;

    public Version(byte[] key, long cts, byte[] value) {
        if (key == null) {
            throw new IllegalArgumentException("version key is null");
        }
        if (cts < 0) {
            throw new IllegalArgumentException("commit timestamp must be >= 0, got " + cts);
        }
        this.key = key;
        this.cts = cts;
        this.value = value;
    }

    public static Version tombstone(byte[] key, long cts) {
        return new Version(key, cts, null);
    }

    public byte[] key() {
        return key;
    }

    public long cts() {
        return cts;
    }

    /** The value, or null for a tombstone. */
    public byte[] value() {
        return value;
    }

    public boolean isTombstone() {
        return value == null;
    }

    /** Bytes this version costs in memory and on disk, roughly; used for size accounting. */
    public int sizeBytes() {
        return key.length + (value == null ? 0 : value.length) + 24;
    }

    public static int compareKeys(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** Compares (key ascending, cts descending). */
    public static int compare(byte[] keyA, long ctsA, byte[] keyB, long ctsB) {
        int c = Arrays.compareUnsigned(keyA, keyB);
        return c != 0 ? c : Long.compare(ctsB, ctsA);
    }

    public static int compare(Version a, Version b) {
        return compare(a.key, a.cts, b.key, b.cts);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Version v && cts == v.cts && Arrays.equals(key, v.key) && Arrays.equals(value, v.value);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(key) + Long.hashCode(cts)) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "Version[" + hex.formatHex(key) + "@" + cts + "=" + (value == null ? "<tombstone>" : hex.formatHex(value)) + "]";
    }
}
