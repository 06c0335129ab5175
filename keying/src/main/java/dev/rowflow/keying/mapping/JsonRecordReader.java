package dev.rowflow.keying.mapping;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads one UTF-8 JSON object into a {@link RecordTree} with Jackson's streaming parser (no data
 * binding, no reflection). It refuses, naming the path where it can: anything but one object (an
 * array, a scalar, trailing content), invalid UTF-8, nesting deeper than
 * {@value RecordTree#MAX_DEPTH} levels, and an object with the same key twice (which of two
 * values "wins" differs between JSON libraries, so neither is guessed at).
 */
final class JsonRecordReader {
    private static final JsonFactory JSON = JsonFactory.builder()
            // One more than ours, so rowflow's own check (which names the path) speaks first.
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(RecordTree.MAX_DEPTH + 1).build())
            .build();

    private JsonRecordReader() {
    }

    /**
     * The record tree of one JSON object.
     *
     * @throws InvalidEventException (field {@code value}, or the path at fault) if the bytes are
     *                               not one JSON object rowflow reads
     */
    static Map<String, Object> read(byte[] bytes) {
        try (JsonParser parser = JSON.createParser(bytes)) {
            JsonToken first = parser.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new InvalidEventException(Refusal.UNREADABLE,
                        "value", preview(bytes), first == null ? "is empty, a JSON object is expected"
                        : "is " + describe(first) + ", a JSON object is expected");
            }
            Map<String, Object> record;
            try {
                record = readObject(parser, 1);
            } catch (Misplaced e) {
                throw new InvalidEventException(Refusal.UNREADABLE, e.path(), e.value, e.getMessage());
            }
            JsonToken after = parser.nextToken();
            if (after != null) {
                throw new InvalidEventException(Refusal.UNREADABLE,
                        "value", preview(bytes), "has content after the JSON object at offset "
                        + parser.currentTokenLocation().getByteOffset());
            }
            // Jackson decodes overlong forms and code points past U+10FFFF instead of refusing them.
            int illFormed = illFormedUtf8(bytes);
            if (illFormed >= 0) {
                throw new InvalidEventException(Refusal.UNREADABLE,
                        "value", preview(bytes), "is not valid UTF-8: ill-formed sequence at offset "
                        + illFormed);
            }
            return record;
        } catch (JsonProcessingException e) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", preview(bytes), "is not valid JSON: " + e.getOriginalMessage()
                    + " at offset " + e.getLocation().getByteOffset());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode
     * Table 3-7: no overlong forms, surrogates or code points past U+10FFFF), or -1.
     */
    private static int illFormedUtf8(byte[] bytes) {
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xFF;
            if (lead < 0x80) {
                i++;
                continue;
            }
            int length = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                    : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
            if (length == 0 || i + length > bytes.length) {
                return i;
            }
            int second = bytes[i + 1] & 0xFF;
            int low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
            int high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
            if (second < low || second > high) {
                return i;
            }
            for (int k = 2; k < length; k++) {
                if ((bytes[i + k] & 0xC0) != 0x80) {
                    return i;
                }
            }
            i += length;
        }
        return -1;
    }

    private static Map<String, Object> readObject(JsonParser parser, int depth) throws IOException {
        RecordObject object = new RecordObject();
        for (String key = parser.nextFieldName(); key != null; key = parser.nextFieldName()) {
            parser.nextToken();
            Object value;
            try {
                value = readValue(parser, depth);
            } catch (Misplaced e) {
                throw e.under(key);
            }
            if (!object.add(key, value)) {
                throw new Misplaced("appears twice in one object (duplicate key)").under(key);
            }
        }
        return object;
    }

    private static Object readValue(JsonParser parser, int depth) throws IOException {
        switch (parser.currentToken()) {
            case VALUE_STRING:
                return parser.getText();
            case START_OBJECT:
                checkDepth(depth + 1, "{...}");
                return readObject(parser, depth + 1);
            case START_ARRAY: {
                checkDepth(depth + 1, "[...]");
                List<Object> array = new ArrayList<>();
                for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                    try {
                        array.add(readValue(parser, depth + 1));
                    } catch (Misplaced e) {
                        throw e.under(array.size());
                    }
                }
                return array;
            }
            case VALUE_NUMBER_INT:
                return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? parser.getBigIntegerValue()
                        : (Object) parser.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return parser.getDecimalValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return RecordTree.NULL;
            default:
                throw new Misplaced(parser.getText(), "is not a JSON value");
        }
    }

    /** Refuses the object or array ({@code shown}: how the refusal prints it) that starts at {@code depth}. */
    private static void checkDepth(int depth, String shown) {
        if (depth > RecordTree.MAX_DEPTH) {
            throw new Misplaced(shown, "nests deeper than " + RecordTree.MAX_DEPTH + " objects and arrays");
        }
    }

    /**
     * A fault at a place in the record: thrown where it is found and given the path on the way
     * out, each enclosing object or array adding its step, so reading a good record builds no
     * paths at all.
     */
    private static final class Misplaced extends RuntimeException {
        private final java.util.ArrayDeque<Object> steps = new java.util.ArrayDeque<>();

        private final Object value;

        Misplaced(String reason) {
            this(null, reason);
        }

        Misplaced(Object value, String reason) {
            super(reason, null, false, false);
            this.value = value;
        }

        Misplaced under(Object step) {
            steps.addFirst(step);
            return this;
        }

        String path() {
            StringBuilder path = new StringBuilder();
            for (Object step : steps) {
                if (step instanceof Integer index) {
                    path.append('[').append(index).append(']');
                } else {
                    path.append(path.length() == 0 ? "" : ".").append(step);
                }
            }
            return path.toString();
        }
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case START_ARRAY -> "a JSON array";
            case VALUE_STRING -> "a JSON string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a JSON number";
            case VALUE_TRUE, VALUE_FALSE -> "a JSON boolean";
            case VALUE_NULL -> "JSON null";
            default -> "not a JSON object";
        };
    }

    /** The start of a record for an error message (the message quotes at most 120 characters). */
    private static String preview(byte[] bytes) {
        return new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.UTF_8);
    }
}
