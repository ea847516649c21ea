package org.elastras.otm.txn;

/**
 * One row of a byte-level scan: an encoded key and its value. Immutable (the arrays must not be
 * changed).
 */
public record KeyValue(byte[] key, byte[] value) {
    public KeyValue {
        if (key == null || value == null) {
            throw new IllegalArgumentException("a scanned row has a key and a value");
        }
    }
}
