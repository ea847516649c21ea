package org.elastras.client.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Encodes and decodes protocol records in Smile and JSON, with bounds on what a body may make the
 * decoder do. Immutable and thread-safe once built: share one instance.
 *
 * <p>Decoding is strict: unknown fields, duplicate fields, trailing content, a string where a number
 * belongs (and the reverse), and a fraction where a whole number belongs are all rejected. A missing
 * (or null) number or boolean field reads as 0 or false; the records reject the zeros they do not
 * allow (a transaction id, a scan limit). The byte-level bounds come from Jackson's
 * {@link StreamReadConstraints}: the body length, the nesting depth, the length of one string,
 * number or field name. Collection sizes are bounded by the records' own constructors (see
 * {@link ProtocolLimits}), and the body length bounds what the parser can allocate before they run.
 *
 * <p>Every decoding failure is an {@link ElasTrasException}: {@link ErrorCode#LIMIT_EXCEEDED} for
 * a broken bound, {@link ErrorCode#MALFORMED_REQUEST} otherwise, with a message naming the field
 * (as a path like {@code row.C_NAME} or {@code tables[0].columns[2].type}) and what was wrong.
 */
public final class ProtocolCodec {

    /** Default largest body, in bytes: room for a row with a 1 MiB BYTES value in base64 JSON. */
    public static final int BODY_BYTES_MAX_DEFAULT = 4 * 1024 * 1024;
    /** Default deepest nesting of objects and arrays. */
    public static final int NESTING_DEPTH_MAX_DEFAULT = 32;
    /** Longest field name, in characters. */
    public static final int FIELD_NAME_LENGTH_MAX = 256;
    /** Longest number literal, in characters (a DECIMAL(18) needs 20). */
    public static final int NUMBER_LENGTH_MAX = 100;
    /** Longest error message put in a response, in characters. */
    static final int MESSAGE_LENGTH_MAX = 1_000;

    private final int bodyBytesMax;
    private final int nestingDepthMax;
    /** Most distinct (body bound, nesting bound) pairs whose mappers are shared; in practice two or three. */
    static final int SHARED_CONFIGURATIONS_MAX = 8;
    private static final ConcurrentHashMap<Long, ObjectMapper[]> SHARED = new ConcurrentHashMap<>();

    private final ObjectMapper smile;
    private final ObjectMapper json;

    /** Round trips of each warm-up sample: past the 15 reflective calls after which the JVM generates a constructor's accessor. */
    public static final int SAMPLE_ROUNDS = 20;

    /** A codec with the default bounds. */
    public ProtocolCodec() {
        this(BODY_BYTES_MAX_DEFAULT, NESTING_DEPTH_MAX_DEFAULT);
    }

    /**
     * A codec with the given bounds.
     *
     * @param bodyBytesMax the largest body decoded, in bytes, at least 1 KiB
     * @param nestingDepthMax the deepest nesting of objects and arrays, 4 to 1000
     */
    public ProtocolCodec(int bodyBytesMax, int nestingDepthMax) {
        if (bodyBytesMax < 1024) {
            throw new IllegalArgumentException("bodyBytesMax must be at least 1024, got " + bodyBytesMax);
        }
        if (nestingDepthMax < 4 || nestingDepthMax > 1000) {
            throw new IllegalArgumentException("nestingDepthMax must be 4 to 1000, got " + nestingDepthMax);
        }
        this.bodyBytesMax = bodyBytesMax;
        this.nestingDepthMax = nestingDepthMax;
        ObjectMapper[] shared = sharedMappers(bodyBytesMax, nestingDepthMax);
        this.smile = shared[0];
        this.json = shared[1];
    }

    /**
     * The mappers of every codec with these bounds in this JVM. A mapper builds the reader and
     * writer of each record type on first use, which takes tens of milliseconds a type even in a
     * warm JVM; a master or client creates a codec for every OTM it talks to, and a partition
     * moved into a new OTM waited for those builds. Mappers are thread-safe once configured. At
     * most {@link #SHARED_CONFIGURATIONS_MAX} bound pairs are kept; others get mappers of their own.
     */
    private static ObjectMapper[] sharedMappers(int bodyBytesMax, int nestingDepthMax) {
        long key = ((long) bodyBytesMax << 32) | nestingDepthMax;
        ObjectMapper[] mappers = SHARED.get(key);
        if (mappers != null) {
            return mappers;
        }
        mappers = newMappers(bodyBytesMax, nestingDepthMax);
        if (SHARED.size() >= SHARED_CONFIGURATIONS_MAX) {
            return mappers;
        }
        ObjectMapper[] raced = SHARED.putIfAbsent(key, mappers);
        return raced == null ? mappers : raced;
    }

    private static ObjectMapper[] newMappers(int bodyBytesMax, int nestingDepthMax) {
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxDocumentLength(bodyBytesMax)
                .maxNestingDepth(nestingDepthMax)
                .maxStringLength(bodyBytesMax)
                .maxNumberLength(NUMBER_LENGTH_MAX)
                .maxNameLength(FIELD_NAME_LENGTH_MAX)
                .build();
        ObjectMapper smile = configure(SmileMapper.builder(SmileFactory.builder()
                .streamReadConstraints(constraints)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build()));
        ObjectMapper json = configure(JsonMapper.builder(JsonFactory.builder()
                .streamReadConstraints(constraints)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build()));
        return new ObjectMapper[] {smile, json};
    }

    private static ObjectMapper configure(com.fasterxml.jackson.databind.cfg.MapperBuilder<?, ?> builder) {
        return builder
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // A missing or null number/boolean field reads as 0/false, which is how an optional field
                // (afterCts, nullable) gets its default; the records refuse the zeros that are not allowed.
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
                .build();
    }

    /**
     * Builds now, instead of on first use, the Smile readers and writers of these operations'
     * requests and responses (and of errors), in the mappers every codec with these bounds
     * shares. A first use costs tens of milliseconds a type in a warm JVM and more in a fresh one;
     * for {@link Operation#MOVES} it was paid while a moved partition was unavailable. A property
     * declared as a list is written by its runtime class (which for {@code List.copyOf} depends on
     * the size), unknown here: the lists of the moves' messages are declared statically typed
     * ({@code @JsonSerialize(typing = STATIC)}), so that this builds all they need.
     */
    public void warmUp(Collection<Operation> operations) {
        for (Operation op : operations) {
            for (Class<?> type : List.of(op.requestType(), op.responseType())) {
                smile.readerFor(type);
                smile.writerFor(type);
            }
        }
        smile.readerFor(ErrorResponse.class);
        smile.writerFor(ErrorResponse.class);
    }

    /**
     * As {@link #warmUp(Collection)}, then encodes and decodes each sample message {@link
     * #SAMPLE_ROUNDS} times in Smile. A reader and a writer built ahead still run cold on their
     * first messages: nested records' and lists' (de)serializers, and the accessor the JVM
     * generates for a record's constructor once it has been called reflectively 15 times. For the
     * messages of a live move's pause, that first run happened inside the pause.
     *
     * @throws IllegalStateException if a sample does not decode to what encodes to the same bytes
     *     (a codec bug, not the caller's)
     */
    public void warmUp(Collection<Operation> operations, Collection<? extends Record> samples) {
        warmUp(operations);
        for (Record sample : samples) {
            byte[] bytes = encode(sample, WireFormat.SMILE);
            for (int round = 0; round < SAMPLE_ROUNDS; round++) {
                Object back = decode(bytes, sample.getClass(), WireFormat.SMILE, sample.getClass().getSimpleName());
                byte[] again = encode(back, WireFormat.SMILE);
                if (!Arrays.equals(bytes, again)) {
                    throw new IllegalStateException("the warm-up sample " + sample + " did not survive a round trip");
                }
            }
        }
    }

    /** The largest body this codec decodes, in bytes. */
    public int bodyBytesMax() {
        return bodyBytesMax;
    }

    /** The deepest nesting this codec decodes. */
    public int nestingDepthMax() {
        return nestingDepthMax;
    }

    /**
     * The configured mapper for {@code format}; for tools and tests, not for bypassing the checks.
     * Every codec with the same bounds shares it: never reconfigure it.
     */
    public ObjectMapper mapper(WireFormat format) {
        return format == WireFormat.SMILE ? smile : json;
    }

    /**
     * Encodes a record (or any JSON-able value).
     *
     * @throws IllegalStateException if the value cannot be encoded, which only a bug can cause
     */
    public byte[] encode(Object value, WireFormat format) {
        try {
            return mapper(format).writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + value.getClass().getName() + " as " + format
                    + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Decodes the body of {@code op}'s request.
     *
     * @throws ElasTrasException MALFORMED_REQUEST or LIMIT_EXCEEDED, saying what was wrong
     */
    public Record decodeRequest(Operation op, byte[] body, WireFormat format) {
        return decode(body, op.requestType(), format, op.wireName() + " request");
    }

    /**
     * Decodes a body into {@code type}.
     *
     * @param what what the body is, for messages ("get request", "scan response")
     * @throws ElasTrasException MALFORMED_REQUEST or LIMIT_EXCEEDED, saying what was wrong
     */
    public <T> T decode(byte[] body, Class<T> type, WireFormat format, String what) {
        if (body.length > bodyBytesMax) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, what + " body is " + body.length
                    + " bytes; the limit is " + bodyBytesMax);
        }
        if (body.length == 0) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, what + " body is empty; send a "
                    + format + " object (" + format.contentType() + ")");
        }
        try {
            return mapper(format).readValue(body, type);
        } catch (ValueInstantiationException e) {
            throw fromInstantiation(e, what);
        } catch (StreamConstraintsException e) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, bound(what + " body breaks a bound: "
                    + e.getOriginalMessage()), e);
        } catch (UnrecognizedPropertyException e) {
            String known = e.getKnownPropertyIds() == null ? "" : "; the known fields are "
                    + e.getKnownPropertyIds().stream().map(String::valueOf).sorted().collect(Collectors.joining(", ", "[", "]"));
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, bound(what + " has unknown field '"
                    + e.getPropertyName() + "'" + at(e) + known + "; remove it"), e);
        } catch (MismatchedInputException e) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, bound(what + " has a field of the wrong type"
                    + at(e) + ": " + e.getOriginalMessage()), e);
        } catch (JsonMappingException e) {
            if (e.getCause() instanceof ElasTrasException cause) {
                throw cause;
            }
            if (e.getCause() instanceof StreamConstraintsException limit) {
                throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, bound(what + " body breaks a bound: "
                        + limit.getOriginalMessage()), e);
            }
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, bound(what + " cannot be decoded"
                    + at(e) + ": " + e.getOriginalMessage()), e);
        } catch (JsonProcessingException e) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, bound(what + " is not valid " + format
                    + " (Content-Type " + format.contentType() + "): " + e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new IllegalStateException("reading from a byte array failed", e);
        }
    }

    private static ElasTrasException fromInstantiation(ValueInstantiationException e, String what) {
        Throwable cause = e.getCause();
        if (cause instanceof ElasTrasException ee) {
            return ee;
        }
        String detail = cause == null ? e.getOriginalMessage() : cause.getMessage();
        return new ElasTrasException(ErrorCode.MALFORMED_REQUEST, bound(what + " is invalid" + at(e) + ": " + detail), e);
    }

    /** " at field a.b[2]" for the path of a mapping failure, or "" at the top. */
    private static String at(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.length() == 0 ? "" : " at field " + b;
    }

    static String bound(String message) {
        return message.length() <= MESSAGE_LENGTH_MAX ? message : message.substring(0, MESSAGE_LENGTH_MAX) + "...";
    }
}
