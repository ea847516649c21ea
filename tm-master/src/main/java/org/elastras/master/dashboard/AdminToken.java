package org.elastras.master.dashboard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Checks the {@code Authorization: Bearer <token>} header of a request against the configured
 * admin token: none is 401, a wrong one 403, and so is any token when admin actions are disabled.
 * Immutable.
 */
final class AdminToken {

    private static final String BEARER = "Bearer ";

    /** Null when admin actions are disabled. */
    private final byte[] expected;

    AdminToken(String token) {
        this.expected = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Returns if {@code authorization} carries the token.
     *
     * @param authorization the request's Authorization header, null if absent
     * @param what what the caller wants to do, for the message
     * @throws ApiError 401 without a bearer token, 403 with a wrong one or when admin is disabled
     */
    void check(String authorization, String what) {
        if (authorization == null || !authorization.startsWith(BEARER) || authorization.length() == BEARER.length()) {
            throw new ApiError(401, what + " needs the admin token: send 'Authorization: Bearer <token>'"
                    + " (the token the master was started with, --admin-token)");
        }
        if (expected == null) {
            throw new ApiError(403, "admin actions are disabled on this master; start it with --admin-token");
        }
        byte[] given = authorization.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8);
        if (given.length > DashboardConfig.TOKEN_LENGTH_MAX || !MessageDigest.isEqual(expected, given)) {
            throw new ApiError(403, "the admin token is wrong; " + what + " was not done");
        }
    }
}
