package org.elastras.experiments.history;

import java.util.List;
import java.util.Objects;

/**
 * One operation inside a transaction, as the client issued it and, for reads, what it saw.
 * Immutable. Two workloads are supported, on disjoint keys: list-append ({@link Append},
 * {@link ReadList}), where each key holds a list and reads return the whole list, and read/write
 * registers ({@link Write}, {@link ReadRegister}). Every value written to a key must be unique
 * for that key: that is what lets the checker tell which transaction a read observed.
 */
public sealed interface MicroOp permits MicroOp.Append, MicroOp.ReadList, MicroOp.Write, MicroOp.ReadRegister {

    /** Longest key accepted, in characters. */
    int KEY_LENGTH_MAX = 256;

    String key();

    /** True for {@link Append} and {@link Write}. */
    boolean isWrite();

    /** True if this op belongs to the list-append workload. */
    boolean isListOp();

    /** Appends {@code value} to the list at {@code key}. */
    record Append(String key, long value) implements MicroOp {
        public Append {
            checkKey(key);
        }

        @Override
        public boolean isWrite() {
            return true;
        }

        @Override
        public boolean isListOp() {
            return true;
        }

        @Override
        public String toString() {
            return "append(" + key + ", " + value + ")";
        }
    }

    /**
     * Reads the whole list at {@code key}. {@code values} is what the read returned, oldest first,
     * or null if the client never learned it (a transaction that failed or timed out before the
     * read answered). A committed transaction's reads must all be observed.
     */
    record ReadList(String key, List<Long> values) implements MicroOp {
        public ReadList {
            checkKey(key);
            values = values == null ? null : List.copyOf(values);
        }

        /** A read whose answer the client never got. */
        public static ReadList unobserved(String key) {
            return new ReadList(key, null);
        }

        public boolean observed() {
            return values != null;
        }

        @Override
        public boolean isWrite() {
            return false;
        }

        @Override
        public boolean isListOp() {
            return true;
        }

        @Override
        public String toString() {
            return "read(" + key + ") -> " + (values == null ? "?" : values.toString());
        }
    }

    /** Sets the register at {@code key} to {@code value}. */
    record Write(String key, long value) implements MicroOp {
        public Write {
            checkKey(key);
        }

        @Override
        public boolean isWrite() {
            return true;
        }

        @Override
        public boolean isListOp() {
            return false;
        }

        @Override
        public String toString() {
            return "write(" + key + ", " + value + ")";
        }
    }

    /**
     * Reads the register at {@code key}. If {@code observed}, {@code value} is what the read
     * returned, null meaning the key was never written; if not observed, {@code value} must be null.
     */
    record ReadRegister(String key, Long value, boolean observed) implements MicroOp {
        public ReadRegister {
            checkKey(key);
            if (!observed && value != null) {
                throw new IllegalArgumentException("an unobserved register read of " + key + " cannot carry a value (" + value + ")");
            }
        }

        /** A read that returned {@code value} (null: the key was never written). */
        public static ReadRegister of(String key, Long value) {
            return new ReadRegister(key, value, true);
        }

        /** A read whose answer the client never got. */
        public static ReadRegister unobserved(String key) {
            return new ReadRegister(key, null, false);
        }

        @Override
        public boolean isWrite() {
            return false;
        }

        @Override
        public boolean isListOp() {
            return false;
        }

        @Override
        public String toString() {
            return "read(" + key + ") -> " + (observed ? String.valueOf(value) : "?");
        }
    }

    private static void checkKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isEmpty() || key.length() > KEY_LENGTH_MAX) {
            throw new IllegalArgumentException("a key must have 1 to " + KEY_LENGTH_MAX + " characters, got " + key.length());
        }
    }
}
