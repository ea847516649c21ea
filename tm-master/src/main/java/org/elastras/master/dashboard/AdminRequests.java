package org.elastras.master.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/**
 * The bodies of the move and drain admin calls, parsed strictly: a JSON object with only the
 * fields named, each of its type, or an {@link ApiError} 400 saying what was wrong. Stateless and
 * thread-safe (Jackson's {@code ObjectMapper} is, once configured).
 */
final class AdminRequests {

    /** Longest OTM id accepted in a path or a body (ids are short names like {@code otm-3}). */
    static final int OTM_ID_LENGTH_MAX = 100;

    /** {@code POST /api/admin/partitions/<id>/move}: the destination OTM. */
    record MoveRequest(String to) {
    }

    /** {@code POST /api/admin/otms/<id>/drain}: start (true) or stop (false) draining. */
    record DrainRequest(boolean drain) {
    }

    private static final String MOVE_EXAMPLE = "{\"to\": \"<otmId>\"}";
    private static final String DRAIN_EXAMPLE = "{\"drain\": true} (or false to stop, or no body)";

    private final ObjectMapper json = new ObjectMapper();

    MoveRequest move(byte[] body) {
        JsonNode root = object(body, Set.of("to"), MOVE_EXAMPLE);
        JsonNode to = root.get("to");
        if (to == null || !to.isTextual()) {
            throw new ApiError(400, "give the destination OTM as a string: " + MOVE_EXAMPLE);
        }
        return new MoveRequest(otmId(to.asText(), "\"to\""));
    }

    /** An empty body means drain. */
    DrainRequest drain(byte[] body) {
        if (body.length == 0) {
            return new DrainRequest(true);
        }
        JsonNode root = object(body, Set.of("drain"), DRAIN_EXAMPLE);
        JsonNode drain = root.get("drain");
        if (drain == null) {
            return new DrainRequest(true);
        }
        if (!drain.isBoolean()) {
            throw new ApiError(400, "\"drain\" must be true or false, got " + shorten(drain.toString()) + "; send "
                    + DRAIN_EXAMPLE);
        }
        return new DrainRequest(drain.booleanValue());
    }

    /** A syntactically possible OTM id (whether it exists is the master's to say), or a 400. */
    static String otmId(String id, String where) {
        if (id.isBlank() || id.length() > OTM_ID_LENGTH_MAX || !id.chars().allMatch(c -> c > 32 && c < 127)) {
            throw new ApiError(400, where + " must be an OTM id (1 to " + OTM_ID_LENGTH_MAX
                    + " printable characters, no spaces), got '" + shorten(id) + "'; the OTMs are listed at /api/otms");
        }
        return id;
    }

    private JsonNode object(byte[] body, Set<String> fields, String example) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ApiError(400, "the body is not JSON (" + shorten(e.getOriginalMessage()) + "); send " + example);
        } catch (IOException e) {
            throw new ApiError(400, "the body cannot be read; send " + example);
        }
        if (root == null || !root.isObject()) {
            throw new ApiError(400, "the body must be a JSON object: " + example);
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!fields.contains(name)) {
                throw new ApiError(400, "unknown field '" + shorten(name) + "'; send " + example);
            }
        }
        return root;
    }

    private static String shorten(String s) {
        return s == null ? "" : s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }
}
