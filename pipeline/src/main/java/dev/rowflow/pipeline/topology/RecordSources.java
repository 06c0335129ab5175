package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
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
        RecordSource source = new RecordSource(metadata == null ? null : metadata.topic(),
                metadata == null ? -1 : metadata.partition(), metadata == null ? -1 : metadata.offset(),
                record.timestamp(), record.key(), name -> {
                    Header header = headers.lastHeader(name);
                    return header == null ? null : header.value();
                });
        if (record.value() instanceof ReadRecord read && read.change() != null) {
            Change change = read.change();
            source.withChange(change.op().code(), change.before(), change.after(), change.source());
        }
        if (record.value() instanceof ReadRecord read && read.ordinal() > 0) {
            source.ofRecord(read.ordinal());
        }
        return source;
    }
}
