package org.elastras.client.protocol;

/**
 * Admin, to the active master: the partition moves under way, the OTMs being drained and how many
 * moves this master finished ({@code POST /v1/listMoves}). Immutable; no fields.
 */
public record ListMovesRequest() {
}
