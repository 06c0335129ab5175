package dev.rowflow.pipeline.serde;

import dev.rowflow.keying.mapping.RecordTree;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.util.Map;

/**
 * A record tree as compact JSON ({@link RecordTree#compactJson}, read back by
 * {@link RecordTree#parseJson}): the rows a join keeps in its state stores and internal topics.
 * Text, whole numbers, decimals (exactly, as their digits) and JSON nulls come back as they were
 * written; bytes come back as their base64 text.
 */
public final class TreeSerde implements Serde<Map<String, Object>> {
    @Override
    public Serializer<Map<String, Object>> serializer() {
        return (topic, tree) -> tree == null ? null : RecordTree.compactJson(tree);
    }

    @Override
    public Deserializer<Map<String, Object>> deserializer() {
        return (topic, bytes) -> bytes == null ? null : RecordTree.parseJson(bytes);
    }
}
