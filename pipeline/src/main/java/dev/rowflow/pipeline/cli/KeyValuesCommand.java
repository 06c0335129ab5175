package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.EventRules;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.expression.Expression;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.mapping.EventMapping;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordSource;
import dev.rowflow.keying.mapping.RecordTree;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** What the commands that read field values (arguments, stdin lines, sample files) and print keys share. */
abstract class KeyValuesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    KeyLayoutSource source = new KeyLayoutSource();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "shell",
            description = "shell (the HBase shell's \\xNN escaping) or hex (default: ${DEFAULT-VALUE}).")
    KeysCommand.KeyFormat format;

    /**
     * The key of {@code words} ({@code FIELD=VALUE} each), every value checked as the pipeline
     * checks it.
     *
     * @param where where the words are from, for messages ("" for arguments, "line 3: ")
     */
    byte[] encode(RowKeyLayout layout, List<String> words, String where) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String word : words) {
            int eq = word.indexOf('=');
            if (eq <= 0) {
                throw usage(where + "'" + word + "' is not FIELD=VALUE");
            }
            String field = word.substring(0, eq);
            if (values.put(field, word.substring(eq + 1)) != null) {
                throw usage(where + "field " + field + " is given more than once");
            }
        }
        Map<String, List<FieldPath>> read = new LinkedHashMap<>();
        layout.parts().forEach(part -> read.put(part.field(), Expression.parse(part.field()).paths()));
        for (String field : values.keySet()) {
            if (!read.containsKey(field) && read.values().stream().flatMap(List::stream)
                    .noneMatch(path -> path.text().equals(field))) {
                throw usage(where + "field " + field + " is not a part of layout " + layout.spec());
            }
        }
        // A part over an expression (lower(host), event.dataset | 'generic') takes its value from
        // the fields it reads, as the pipeline does from a record of them (text, by dotted key).
        Map<String, Object> record = new LinkedHashMap<>(values);
        Map<String, Object> typed = new LinkedHashMap<>();
        for (KeyPart part : layout.parts()) {
            Object value = values.get(part.field());
            if (value == null) {
                value = Expression.parse(part.field()).evaluate(record, RecordSource.ofTimestamp(0));
            }
            if (value == null || value == RecordTree.NULL) {
                List<String> fields = read.get(part.field()).stream().map(FieldPath::text).toList();
                throw usage(where + "missing " + String.join(" or ", (fields.isEmpty() ? List.of(part.field()) : fields)
                        .stream().map(field -> field + "=VALUE").toList()) + " for part " + part.spec());
            }
            typed.put(part.field(), typed(part, value, where));
        }
        try {
            return layout.encode(typed::get);
        } catch (InvalidEventException e) {
            throw usage(where + e.getMessage());
        }
    }

    /**
     * {@code value} as the value of {@code part}, checked as the pipeline checks it: text for a
     * textual part, else a whole number (for times also an ISO-8601 instant).
     */
    Object typed(KeyPart part, Object value, String where) {
        try {
            return part.encoding().textual() ? EventMapping.keyValue(part.field(), value, true)
                    : value instanceof String text ? number(part, text)
                    : EventMapping.keyValue(part.field(), value, false);
        } catch (InvalidEventException e) {
            throw usage(where + e.getMessage());
        }
    }

    /**
     * A whole number as the pipeline takes it from JSON; for times also an ISO-8601 instant,
     * checked as the pipeline checks an event time before any key is made of it.
     */
    private static Object number(KeyPart part, String value) {
        boolean time = part.encoding().isTime();
        Object number;
        try {
            number = EventMapping.keyValue(part.field(), new BigDecimal(value), false);
        } catch (NumberFormatException notANumber) {
            if (!time) {
                throw new InvalidEventException(Refusal.WRONG_KIND,
                        part.field(), value, "is text, where a whole number is expected");
            }
            try {
                number = Instant.parse(value).toEpochMilli();
            } catch (DateTimeParseException notAnInstant) {
                throw new InvalidEventException(Refusal.WRONG_KIND, part.field(), value,
                        "is neither a whole number (milliseconds) nor an ISO-8601 instant");
            }
        }
        return time ? EventRules.eventTime(part.field(), (Long) number) : number;
    }

    /** The {@code FIELD=VALUE} words of one line: separated by tabs, or by spaces if it has no tab. */
    static List<String> words(String line) {
        String[] words = line.indexOf('\t') >= 0 ? line.split("\t") : line.trim().split(" +");
        return Arrays.stream(words).filter(w -> !w.isEmpty()).toList();
    }

    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
