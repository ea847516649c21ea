package org.elastras.client.protocol;

/**
 * Admin, to the active master: what the balancer would do now, without doing it
 * ({@code POST /v1/balancePlan}, {@code elastras balance --dry-run}). Changes nothing. Immutable;
 * no fields.
 */
public record BalancePlanRequest() {
}
