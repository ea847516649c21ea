package org.elastras.client.protocol;

/** The answer to {@link VoteBranchRequest}: a "yes" vote, its prepare record durable. */
public record VoteBranchResponse() {
}
