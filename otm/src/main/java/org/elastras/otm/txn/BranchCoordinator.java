package org.elastras.otm.txn;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Where the outcome of a cross-partition transaction is decided: the partition of its coordinator
 * (the first partition it touched), found through the catalog by database and encoded root key.
 * The coordinator's commit record there holds the transaction's commit marker, so the partition's
 * owner, whoever that is after moves and failures, answers "committed at CTS c" or "never will".
 * Kept in each participant's prepare record (the value of its branch marker, {@link #encode}).
 *
 * @param database the coordinator partition's database
 * @param partitionId the coordinator partition
 * @param rootKey an encoded root key inside it (for the catalog lookup)
 */
public record BranchCoordinator(String database, long partitionId, byte[] rootKey) {

    private static final int FORMAT = 1;

    public BranchCoordinator {
        if (database == null || database.isEmpty() || rootKey == null) {
            throw new IllegalArgumentException("a branch coordinator needs a database and a root key");
        }
        rootKey = rootKey.clone();
    }

    @Override
    public byte[] rootKey() {
        return rootKey.clone();
    }

    /** The bytes kept in a prepare record. */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(database);
            out.writeLong(partitionId);
            out.writeInt(rootKey.length);
            out.write(rootKey);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Reads what {@link #encode} wrote; a value that is not one is an IllegalArgumentException. */
    public static BranchCoordinator decode(byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(encoded))) {
            int format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("branch coordinator format " + format + " is unknown");
            }
            String database = in.readUTF();
            long partitionId = in.readLong();
            int length = in.readInt();
            if (length < 0 || length > encoded.length) {
                throw new IllegalArgumentException("branch coordinator root key length " + length + " is impossible");
            }
            byte[] rootKey = in.readNBytes(length);
            if (rootKey.length != length) {
                throw new IllegalArgumentException("branch coordinator record is truncated");
            }
            return new BranchCoordinator(database, partitionId, rootKey);
        } catch (IOException e) {
            throw new IllegalArgumentException("branch coordinator record does not decode: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BranchCoordinator c && c.partitionId == partitionId && c.database.equals(database)
                && Arrays.equals(c.rootKey, rootKey);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(partitionId) * 31 + database.hashCode();
    }

    @Override
    public String toString() {
        return "coordinator partition " + partitionId + " of " + database;
    }
}
