package org.elastras.client.protocol;

import java.util.Locale;
import java.util.Optional;

/**
 * The body encodings the protocol speaks: Jackson Smile (binary, what the client library sends) and
 * JSON (for operators with curl). A request is answered in the encoding it came in. Immutable.
 */
public enum WireFormat {
    /** Jackson Smile, {@code application/x-jackson-smile}. */
    SMILE("application/x-jackson-smile"),
    /** JSON, {@code application/json}; binary values travel as base64 strings. */
    JSON("application/json");

    private final String contentType;

    WireFormat(String contentType) {
        this.contentType = contentType;
    }

    /** The media type of this format, without parameters. */
    public String contentType() {
        return contentType;
    }

    /**
     * The format a {@code Content-Type} header names, ignoring case and parameters such as
     * {@code ;charset=utf-8}; empty if the header is missing or names another type.
     */
    public static Optional<WireFormat> fromContentType(String header) {
        if (header == null) {
            return Optional.empty();
        }
        int semicolon = header.indexOf(';');
        String media = (semicolon < 0 ? header : header.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
        for (WireFormat f : values()) {
            if (f.contentType.equals(media)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
