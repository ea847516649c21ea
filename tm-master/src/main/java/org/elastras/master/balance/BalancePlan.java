package org.elastras.master.balance;

import java.util.List;

/**
 * What a {@link BalancePolicy} decided: partitions to move, OTMs to add, OTMs to drain and then
 * remove, and notes on what it held back and why. Immutable.
 *
 * @param atMs the time of the input it was made from
 * @param moves moves to start now, in order
 * @param otmsToAdd OTMs to ask the provisioner for
 * @param otmsToRemove OTMs to drain (mark draining) and remove once empty
 * @param notes why the scale decisions were taken and what was held back (cooldowns, the bound on
 *     moves in flight, partitions not serving)
 */
public record BalancePlan(long atMs, List<Move> moves, int otmsToAdd, List<String> otmsToRemove, List<String> notes) {

    public BalancePlan {
        if (otmsToAdd < 0) {
            throw new IllegalArgumentException("otmsToAdd must be >= 0, got " + otmsToAdd);
        }
        moves = List.copyOf(moves);
        otmsToRemove = List.copyOf(otmsToRemove);
        notes = List.copyOf(notes);
    }

    /** Whether the plan changes nothing. */
    public boolean isEmpty() {
        return moves.isEmpty() && otmsToAdd == 0 && otmsToRemove.isEmpty();
    }

    /** The plan as text, one decision a line: what {@code balance --dry-run} prints. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append("balance plan at ").append(atMs).append(" ms: ");
        if (isEmpty()) {
            out.append("nothing to change\n");
        } else {
            out.append(moves.size()).append(moves.size() == 1 ? " move" : " moves");
            if (otmsToAdd > 0) {
                out.append(", add ").append(otmsToAdd).append(otmsToAdd == 1 ? " OTM" : " OTMs");
            }
            if (!otmsToRemove.isEmpty()) {
                out.append(", remove ").append(String.join(", ", otmsToRemove));
            }
            out.append('\n');
        }
        for (Move m : moves) {
            out.append("  move ").append(m.describe()).append('\n');
        }
        if (otmsToAdd > 0) {
            out.append("  add ").append(otmsToAdd).append(otmsToAdd == 1 ? " OTM" : " OTMs").append('\n');
        }
        for (String otm : otmsToRemove) {
            out.append("  drain and remove ").append(otm).append('\n');
        }
        for (String note : notes) {
            out.append("  note: ").append(note).append('\n');
        }
        return out.toString();
    }
}
