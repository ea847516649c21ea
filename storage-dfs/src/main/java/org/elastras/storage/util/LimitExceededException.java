package org.elastras.storage.util;

/**
 * A key, value, record or batch is larger than the configured limit. Thrown before anything is
 * written, so the operation that hit it changed nothing. A user can cause it: the message says
 * which limit, the size seen and the setting that raises it.
 */
public final class LimitExceededException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public LimitExceededException(String what, long sizeSeen, long limit, String setting) {
        super(what + " is " + sizeSeen + " which exceeds the limit of " + limit
                + " (setting '" + setting + "'); nothing was written");
    }
}
