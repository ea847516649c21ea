package org.elastras.client.protocol;

import java.util.List;

/**
 * The answer to {@link ListMovesRequest}. Immutable.
 *
 * @param moves the moves under way, by partition id
 * @param draining the OTMs being drained, in id order
 * @param movesFinished the moves this master process finished since it became active (a new master
 *     counts from 0)
 */
public record ListMovesResponse(List<MoveInfo> moves, List<String> draining, long movesFinished) {

    public ListMovesResponse {
        moves = moves == null ? List.of() : List.copyOf(moves);
        draining = Fields.names("listMoves response", "draining", draining);
        if (movesFinished < 0) {
            throw Fields.malformed("listMoves response", "movesFinished is " + movesFinished + "; a count is not negative");
        }
    }
}
