package org.elastras.client.protocol;

/**
 * The answer to {@link ShipVersionsRequest}: the versions are durable in the destination's log and
 * applied to its copy. Immutable.
 *
 * @param versionsNew how many of them the copy did not have yet
 */
public record ShipVersionsResponse(long versionsNew) {
}
