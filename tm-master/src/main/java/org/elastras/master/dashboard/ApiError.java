package org.elastras.master.dashboard;

import java.util.Map;

/**
 * A request the dashboard refuses: the HTTP status, a message saying what was wrong and what to
 * do, and extra fields for the answer (a standby's pointer to the active master). Immutable.
 */
final class ApiError extends RuntimeException {

    private final int status;
    private final Map<String, Object> details;

    ApiError(int status, String message) {
        this(status, message, Map.of());
    }

    ApiError(int status, String message, Map<String, Object> details) {
        super(message, null, false, false);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("an error status is 4xx or 5xx, got " + status);
        }
        this.status = status;
        this.details = Map.copyOf(details);
    }

    int status() {
        return status;
    }

    Map<String, Object> details() {
        return details;
    }
}
