package dev.rowflow.pipeline.config;

import dev.rowflow.keying.layout.RowKeyLayout;
import dev.rowflow.keying.log.LogEventRows;
import dev.rowflow.keying.order.OrderRows;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.util.List;
import java.util.function.Consumer;

/** The validators of {@link RowflowConfig}'s keys whose values are names or key layouts. */
final class Validators {
    private Validators() {
    }

    /** Input names: short, unique, usable in keys and table names. */
    static final class InputNames implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            List<?> names = (List<?>) value;
            for (Object input : names) {
                if (!String.valueOf(input).matches("[a-z][a-z0-9_-]{0,39}")) {
                    throw new ConfigException(name, value, "input name '" + input + "' must be 1 to 40 of a-z, 0-9, _ "
                            + "and -, starting with a letter");
                }
            }
            if (new java.util.HashSet<>(names).size() != names.size()) {
                throw new ConfigException(name, value, "names an input twice");
            }
        }

        @Override
        public String toString() {
            return "names of [a-z][a-z0-9_-]*";
        }
    }

    /** The built-in pipelines a list may name, each once; null (unset) is left to {@link RowflowConfig#pipelines}. */
    static final class PipelineNames implements ConfigDef.Validator {
        private final List<String> names;

        PipelineNames(String... names) {
            this.names = List.of(names);
        }

        @Override
        public void ensureValid(String name, Object value) {
            if (value == null) {
                return;
            }
            List<?> named = (List<?>) value;
            for (Object pipeline : named) {
                if (!names.contains(String.valueOf(pipeline))) {
                    throw new ConfigException(name, value, "no built-in pipeline '" + pipeline + "' (there are "
                            + String.join(", ", names) + ")");
                }
            }
            if (new java.util.HashSet<>(named).size() != named.size()) {
                throw new ConfigException(name, value, "names a pipeline twice");
            }
        }

        @Override
        public String toString() {
            return names.toString();
        }
    }

    /** Refuses a key layout that does not parse or that {@code check} refuses, naming the bad part. */
    static final class Layout implements ConfigDef.Validator {
        private final Consumer<RowKeyLayout> check;
        private final String description;

        private Layout(Consumer<RowKeyLayout> check, String description) {
            this.check = check;
            this.description = description;
        }

        /** An order layout: [customer][order]. */
        static Layout order() {
            return new Layout(OrderRows::checkLayout, "customerNumber:E, orderNumber:E");
        }

        /** A layout over LogEvent's fields. */
        static Layout logEvent() {
            return new Layout(LogEventRows::checkFields, "a key layout over LogEvent fields");
        }

        @Override
        public void ensureValid(String name, Object value) {
            try {
                check.accept(RowKeyLayout.parse((String) value, null));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return description;
        }
    }
}
