package org.elastras.client.protocol;

/**
 * The answer to {@link PrepareBranchRequest}. Immutable.
 *
 * @param ctsAbove the transaction's commit timestamp must be above this
 * @param done the branch read nothing it must validate and wrote nothing: it ended here and
 *     takes no vote
 * @param readOnly the branch wrote nothing: if no part of the transaction did, the coordinator
 *     ends it with {@code decideBranch} (commit, CTS 0) without a vote
 */
public record PrepareBranchResponse(long ctsAbove, boolean done, boolean readOnly) {
}
