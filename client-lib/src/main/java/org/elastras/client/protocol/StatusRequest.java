package org.elastras.client.protocol;

/**
 * Admin: asks the OTM what it is and serves ({@code POST /v1/status}). Immutable; no fields.
 */
public record StatusRequest() {
}
