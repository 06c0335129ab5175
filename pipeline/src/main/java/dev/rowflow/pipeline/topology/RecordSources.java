package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.mapping.RecordSource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** The {@link RecordSource} of the record a processor is at: what {@code $key}, {@code $header.x}... read. */
final class RecordSources {
    private RecordSources() {
    }

    static RecordSource of(ProcessorContext<?, ?> context, Record<byte[], ?> record) {
        RecordMetadata metadata = context.recordMetadata().orElse(null);
        Headers headers = record.headers();
        return new RecordSource(metadata == null ? null : metadata.topic(),
                metadata == null ? -1 : metadata.partition(), metadata == null ? -1 : metadata.offset(),
                record.timestamp(), record.key(), name -> {
                    Header header = headers.lastHeader(name);
                    return header == null ? null : header.value();
                });
    }
}
