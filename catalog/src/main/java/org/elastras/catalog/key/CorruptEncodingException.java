package org.elastras.catalog.key;

/**
 * Stored bytes of a key, row or catalog record do not decode under their format: an operating error
 * (corruption, or bytes written by something else), never silently repaired or skipped. The
 * message says which format, at which byte offset, and what was wrong.
 */
public final class CorruptEncodingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CorruptEncodingException(String format, int offset, String what) {
        super("corrupt " + format + " at byte " + offset + ": " + what);
    }
}
