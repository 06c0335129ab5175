package dev.rowflow.pipeline.config;

import dev.rowflow.keying.mapping.ColumnSpec;
import dev.rowflow.keying.mapping.MappingException;
import dev.rowflow.keying.mapping.MappingSpec;
import dev.rowflow.keying.mapping.TimeFormat;
import org.apache.kafka.common.config.ConfigException;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static dev.rowflow.pipeline.config.InputConfig.*;

/**
 * The mapping one declared input declares: its keys read into the {@link MappingSpec} the
 * {@code PipelinePlan} compiles, and the piece a {@link MappingException} is about traced back to
 * the key that declares it, so that a mapping refused at start-up names the key to change.
 */
final class InputMapping {
    private InputMapping() {
    }

    /** See {@link InputConfig#mappingSpec()}. */
    static MappingSpec spec(InputConfig input) {
        List<MappingSpec.IndexSpec> indexSpecs = new ArrayList<>();
        for (String index : input.indexes()) {
            indexSpecs.add(new MappingSpec.IndexSpec(index, input.indexRole(index),
                    input.getString("index." + index + "." + KEY),
                    input.getString("index." + index + "." + WHEN_MISSING).equals(WHEN_MISSING_SKIP)));
        }
        String summaryKey = input.getString(SUMMARY_KEY);
        List<ColumnSpec> columns;
        try {
            columns = ColumnSpec.parseList(input.getString(COLUMNS),
                    input.getString(COLUMNS_MISMATCH).equals(MISMATCH_NO_CELL));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(input.key(COLUMNS), input.getString(COLUMNS), e.getMessage());
        }
        return new MappingSpec(input.dataRole(), input.getString(FAMILY), input.getString(KEY), columns,
                input.getString(TIME),
                TimeFormat.parse(input.getString(TIME_FORMAT), ZoneId.of(input.getString(TIME_ZONE))),
                input.getString(TIME_MISSING).equals(MISSING_RECORD_TIMESTAMP),
                input.getInt(TIME_BUCKET_SECONDS) * 1000L, indexSpecs,
                summaryKey.isEmpty() ? null : new MappingSpec.SummarySpec(input.summaryRole(), summaryKey,
                        input.getLong(SUMMARY_PERIOD_SECONDS) * 1000L), input.getInt(MAX_CELL_BYTES))
                .withTtl(input.getString(TTL_MS).isBlank() ? null : input.getString(TTL_MS))
                .withElementRows(elementRows(input));
    }

    private static List<MappingSpec.ElementRowsSpec> elementRows(InputConfig input) {
        List<MappingSpec.ElementRowsSpec> specs = new ArrayList<>();
        for (String kind : input.rows()) {
            String prefix = "rows." + kind + ".";
            try {
                specs.add(new MappingSpec.ElementRowsSpec(kind, input.rowsRole(kind), input.getString(prefix + EACH),
                        input.getString(prefix + KEY), ColumnSpec.parseList(input.getString(prefix + COLUMNS),
                        input.getString(COLUMNS_MISMATCH).equals(MISMATCH_NO_CELL))));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(input.key(prefix + COLUMNS), input.getString(prefix + COLUMNS),
                        e.getMessage());
            }
        }
        return specs;
    }

    /** See {@link InputConfig#keyOf}. */
    static String keyOf(MappingException.Piece piece, String index) {
        return switch (piece) {
            case TIME -> TIME;
            case COLUMNS -> COLUMNS;
            case TIME_BUCKET -> TIME_BUCKET_SECONDS;
            case DATA_KEY -> KEY;
            case INDEX_KEY -> "index." + index + "." + KEY;
            case SUMMARY_KEY -> SUMMARY_KEY;
            case TTL -> TTL_MS;
            case ELEMENT_EACH -> "rows." + index + ".each";
            case ELEMENT_KEY -> "rows." + index + "." + KEY;
            case ELEMENT_COLUMNS -> "rows." + index + "." + COLUMNS;
        };
    }
}
