package org.elastras.experiments.history;

import java.io.IOException;

/** A history file that is not a valid JSON-lines history; the message names the line and what is wrong. */
public final class HistoryFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    public HistoryFormatException(String message) {
        super(message);
    }

    public HistoryFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
