package org.elastras.client.protocol;

import java.util.List;

/**
 * The answer to {@link BalancePlanRequest}: the balancer's plan as data, and as the text
 * {@code balance --dry-run} prints. Immutable.
 *
 * @param atMs the time of the load input it was made from (the master's clock)
 * @param moves the moves it would start now, in order
 * @param otmsToAdd how many OTMs it would ask for
 * @param otmsToRemove the OTMs it would drain and remove
 * @param notes what it held back and why
 * @param text the whole plan, one decision a line
 */
public record BalancePlanResponse(long atMs, List<PlannedMove> moves, int otmsToAdd, List<String> otmsToRemove,
        List<String> notes, String text) {

    public BalancePlanResponse {
        moves = moves == null ? List.of() : List.copyOf(moves);
        if (otmsToAdd < 0) {
            throw Fields.malformed("balancePlan response", "otmsToAdd is " + otmsToAdd + "; a count is not negative");
        }
        otmsToRemove = Fields.names("balancePlan response", "otmsToRemove", otmsToRemove);
        notes = notes == null ? List.of() : List.copyOf(notes);
        text = text == null ? "" : text;
    }
}
