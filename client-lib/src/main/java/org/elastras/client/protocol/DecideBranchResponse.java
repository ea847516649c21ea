package org.elastras.client.protocol;

/**
 * The answer to {@link DecideBranchRequest}. Immutable.
 *
 * @param found whether the branch was waiting here (false: it ended already, or never was)
 */
public record DecideBranchResponse(boolean found) {
}
