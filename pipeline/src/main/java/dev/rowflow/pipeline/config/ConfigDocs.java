package dev.rowflow.pipeline.config;

import org.apache.kafka.common.config.ConfigDef;

import java.util.List;

/**
 * The configuration's documentation, generated from its definitions ({@link RowflowConfig#CONFIG}
 * and {@link InputConfig#definition}): what {@code rowflow config} prints and docs/configuration.md's
 * tables are, so the docs cannot drift from the code.
 */
public final class ConfigDocs {
    private ConfigDocs() {
    }

    /** A Markdown table cell: a literal '|' would end it. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    /** The configuration table of docs/configuration.md, generated from {@link RowflowConfig#CONFIG}. */
    public static String markdownTable() {
        return markdownTable(RowflowConfig.CONFIG, "");
    }

    /**
     * The table of one declared input's keys, generated from {@link InputConfig#definition}, for an
     * input {@code <name>} with one index {@code <index>}.
     */
    public static String inputMarkdownTable() {
        return markdownTable(InputConfig.definition(List.of("<index>"), List.of("<kind>")), InputConfig.PREFIX + "<name>.");
    }

    private static String markdownTable(ConfigDef def, String prefix) {
        StringBuilder md = new StringBuilder("| key | type | default | valid values | importance | description |\n")
                .append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey key : def.configKeys().values()) {
            String defaultValue = key.hasDefault() ? "`" + cell(String.valueOf(key.defaultValue)) + "`"
                    : "(required)";
            if (key.hasDefault() && "".equals(key.defaultValue)) {
                defaultValue = "(empty)";
            } else if (key.hasDefault() && key.defaultValue == null) {
                defaultValue = "(unset)";
            }
            md.append("| `").append(prefix).append(key.name).append("` | ")
                    .append(key.type.name().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                    .append(defaultValue).append(" | ")
                    .append(key.validator == null ? "" : key.validator.toString()).append(" | ")
                    .append(key.importance.name().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                    .append(cell(key.documentation)).append(" |\n");
        }
        return md.toString();
    }
}
