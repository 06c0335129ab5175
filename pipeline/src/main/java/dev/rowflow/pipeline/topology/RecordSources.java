package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.format.Change;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.RecordSource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The {@link RecordSource} of a record: what {@code $key}, {@code $header.x}, a change event's
 * {@code $op}... and a held record's {@code $ordinal} read -- for the pipeline's processors and
 * for {@code mapping check} alike.
 */
public final class RecordSources {
    private RecordSources() {
    }

    /** The source of the record a processor is at. */
    static RecordSource of(ProcessorContext<?, ?> context, Record<byte[], ?> record) {
        RecordMetadata metadata = context.recordMetadata().orElse(null);
        return of(metadata == null ? null : metadata.topic(), metadata == null ? -1 : metadata.partition(),
                metadata == null ? -1 : metadata.offset(), record.timestamp(), record.key(), record.headers(),
                record.value() instanceof ReadRecord read ? read : null);
    }

    /**
     * The source of record {@code read} (null for a tombstone) at {@code offset} of
     * {@code partition} of {@code topic}.
     */
    public static RecordSource of(String topic, int partition, long offset, long timestamp, byte[] key,
                                  Headers headers, ReadRecord read) {
        RecordSource source = new RecordSource(topic, partition, offset, timestamp, key, name -> {
            Header header = headers.lastHeader(name);
            return header == null ? null : header.value();
        });
        if (read != null && read.change() != null) {
            Change change = read.change();
            source.withChange(change.op().code(), change.before(), change.after(), change.source());
        }
        if (read != null && read.ordinal() > 0) {
            source.ofRecord(read.ordinal());
        }
        return source;
    }
}
