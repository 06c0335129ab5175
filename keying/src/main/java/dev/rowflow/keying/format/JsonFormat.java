package dev.rowflow.keying.format;

import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordTree;

import java.util.Optional;

/**
 * {@code json}: each record value is one UTF-8 JSON object, schemaless (Filebeat, Logstash,
 * Fluent Bit, Vector...). Read by {@link RecordTree#parseJson}; the whole record, where kept, is
 * the bytes as they came.
 */
public final class JsonFormat implements RecordFormat {
    public static final String NAME = "json";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ReadRecord read(byte[] bytes) {
        return new ReadRecord(RecordTree.parseJson(bytes), () -> bytes);
    }

    @Override
    public Optional<String> cannotYield(FieldPath path) {
        return Optional.empty();
    }
}
