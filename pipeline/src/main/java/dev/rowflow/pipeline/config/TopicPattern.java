package dev.rowflow.pipeline.config;

import dev.rowflow.keying.mapping.RecordKeyFields;
import org.apache.hadoop.hbase.TableName;
import org.apache.kafka.common.config.ConfigException;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The topics of an input that reads every topic a regex matches ({@code topic.pattern}): one
 * declaration for a whole database, whose connector writes a topic per table
 * ({@code server.schema.table}), as Kafka Connect's sinks take {@code topics.regex} and a table
 * name template. Each topic it matches is read as an input of its own ({@link #forTopic}): its
 * data table is the template {@code table} with each {@code ${group}} -- a named group of the
 * regex -- and {@code ${topic}} replaced by what the topic has there.
 *
 * <p>Such an input makes data rows only: indexes, element rows, a summary and joins are declared
 * per table, in an input of the table's own.
 */
public final class TopicPattern {
    /** The template variable of the whole topic name. */
    public static final String TOPIC = "${topic}";
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");
    private static final Pattern NAMED_GROUP = Pattern.compile("\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>");

    private final InputConfig input;
    private final Pattern pattern;
    private final String template;

    private TopicPattern(InputConfig input, Pattern pattern, String template) {
        this.input = input;
        this.pattern = pattern;
        this.template = template;
    }

    /**
     * The topic pattern of {@code input}, or empty for an input of one topic.
     *
     * @throws ConfigException naming the key: neither or both of {@code topic} and
     *                         {@code topic.pattern}; a regex that does not compile; a template
     *                         variable the regex has no group of; a table name no topic makes
     *                         valid; a setting such an input does not take
     */
    static Optional<TopicPattern> of(InputConfig input) {
        String regex = input.getString(InputConfig.TOPIC_PATTERN);
        String topic = input.getString(InputConfig.TOPIC);
        String key = input.getString(InputConfig.KEY);
        if (regex.isEmpty()) {
            if (topic.isBlank()) {
                throw new ConfigException(input.key(InputConfig.TOPIC), topic, "is needed: the topic the input reads "
                        + "(or " + input.key(InputConfig.TOPIC_PATTERN) + ", a regex over topics)");
            }
            if (RecordKeyFields.in(key)) {
                throw new ConfigException(input.key(InputConfig.KEY), key, RecordKeyFields.ALL + " keys each table of "
                        + input.key(InputConfig.TOPIC_PATTERN) + " by its record key's fields; name this topic's key "
                        + "parts ($key.id:long, or the row's id:long)");
            }
            return Optional.empty();
        }
        if (!topic.isEmpty()) {
            throw new ConfigException(input.key(InputConfig.TOPIC_PATTERN), regex, "give the topics once: "
                    + input.key(InputConfig.TOPIC) + "=" + topic + " or a pattern, not both");
        }
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new ConfigException(input.key(InputConfig.TOPIC_PATTERN), regex, "is no Java regex: "
                    + e.getDescription() + " at index " + e.getIndex());
        }
        for (String setting : List.of(InputConfig.INDEXES, InputConfig.ROWS, InputConfig.SUMMARY_KEY,
                InputConfig.JOIN_INPUT)) {
            String value = String.valueOf(input.originals().getOrDefault(setting, ""));
            if (!value.isBlank()) {
                throw new ConfigException(input.key(setting), value, "an input of " + input.key(InputConfig.TOPIC_PATTERN)
                        + " makes the data rows of each topic's table: declare an input of the table's own topic for "
                        + setting);
            }
        }
        if (RecordKeyFields.in(key) && !input.changeEvents()) {
            throw new ConfigException(input.key(InputConfig.KEY), key, RecordKeyFields.ALL + " is the primary key "
                    + "Debezium's record key holds: set " + input.key(InputConfig.ENVELOPE) + "=debezium, or name the "
                    + "key's parts");
        }
        // Not tableName(): the input is being built.
        String template = input.getString(InputConfig.TABLE).isEmpty() ? TOPIC : input.getString(InputConfig.TABLE);
        Set<String> groups = new LinkedHashSet<>(List.of("topic"));
        Matcher named = NAMED_GROUP.matcher(regex);
        while (named.find()) {
            groups.add(named.group(1));
        }
        Matcher variable = VARIABLE.matcher(template);
        while (variable.find()) {
            if (!groups.contains(variable.group(1))) {
                throw new ConfigException(input.key(InputConfig.TABLE), template, "${" + variable.group(1) + "} is "
                        + "no named group of " + input.key(InputConfig.TOPIC_PATTERN) + " (it has: "
                        + String.join(", ", groups) + ")");
            }
        }
        try {
            TableName.valueOf(sample(template));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(input.key(InputConfig.TABLE), template, "makes no HBase table name: "
                    + e.getMessage());
        }
        return Optional.of(new TopicPattern(input, pattern, template));
    }

    /** {@code template} with every variable replaced by a name part, for checks that need a table name. */
    static String sample(String template) {
        return VARIABLE.matcher(template).replaceAll("t");
    }

    /** The regex, as declared. */
    public Pattern pattern() {
        return pattern;
    }

    /**
     * The names of the data tables it makes: the template with {@code ${topic}} as a topic it
     * matches and each group as any non-empty text ({@code shop_${table}} matches
     * {@code shop_orders}), for finding the tables it made.
     */
    public Pattern tables() {
        StringBuilder regex = new StringBuilder();
        Matcher variable = VARIABLE.matcher(template);
        int at = 0;
        while (variable.find()) {
            regex.append(Pattern.quote(template.substring(at, variable.start()))).append(variable.group(1).equals("topic")
                    ? "(?:" + pattern.pattern().replaceAll("\\(\\?<[a-zA-Z][a-zA-Z0-9]*>", "(?:") + ")" : ".+");
            at = variable.end();
        }
        return Pattern.compile(regex.append(Pattern.quote(template.substring(at))).toString());
    }

    /** The key ({@code input.<name>.topic.pattern}) that declares it. */
    public String patternKey() {
        return input.key(InputConfig.TOPIC_PATTERN);
    }

    /** Whether it matches {@code topic} whole. */
    public boolean matches(String topic) {
        return pattern.matcher(topic).matches();
    }

    /**
     * The data table of {@code topic}: the template with its variables replaced.
     *
     * @throws IllegalArgumentException if the pattern does not match the topic
     */
    public String table(String topic) {
        Matcher matcher = pattern.matcher(topic);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("topic " + topic + " is not matched by " + pattern);
        }
        return VARIABLE.matcher(template).replaceAll(variable -> Matcher.quoteReplacement(
                variable.group(1).equals("topic") ? topic : String.valueOf(matcher.group(variable.group(1)))));
    }

    /**
     * The input of one topic it matches: its declaration with {@code topic}, the table the
     * template makes, and {@code keyLayout} (the record key's fields in place of
     * {@value RecordKeyFields#ALL}), named {@code <input>@<topic>} so that each topic's tables have
     * roles and meters of their own; its dead letters go to the input's dead-letter topic.
     *
     * @throws ConfigException if the topic's declaration is refused (a table name the topic makes
     *                         invalid)
     */
    public InputConfig forTopic(String topic, String keyLayout) {
        return InputConfig.of(input.name() + "@" + topic, topicProps(topic, table(topic), keyLayout));
    }

    /**
     * The declaration as a topic's input would have it, named as the input, over a topic no
     * other has: compiled at start, so that everything but the key parts of the record key is
     * refused there, naming the input's keys.
     */
    public InputConfig probe() {
        String key = input.getString(InputConfig.KEY).replace(RecordKeyFields.ALL, "$topic:text");
        return InputConfig.of(input.name(), topicProps(input.name() + ".probe", sample(template), key));
    }

    private Map<String, Object> topicProps(String topic, String table, String keyLayout) {
        Map<String, Object> props = new LinkedHashMap<>(input.originals());
        props.remove(InputConfig.TOPIC_PATTERN);
        props.put(InputConfig.TOPIC, topic);
        props.put(InputConfig.TABLE, table);
        props.put(InputConfig.KEY, keyLayout);
        props.put(InputConfig.DEAD_LETTER_TOPIC, input.deadLetterTopic());
        return props;
    }
}
