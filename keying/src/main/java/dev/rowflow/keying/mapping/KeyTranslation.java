package dev.rowflow.keying.mapping;

import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a row written with one key layout is keyed with another: re-keying a table decodes each
 * row's key with the layout the table records and encodes it with the new one. Each part of the
 * new layout takes its field's value, in this order of preference, from
 * <ol>
 *   <li>the old key, where the old layout has a part of that field whose encoding gives the value
 *       back (text, whole numbers, times -- {@code ts} and {@code rts} either way) or holds the same
 *       digest ({@code md5} to {@code md5});</li>
 *   <li>the row's cell time, for a time part over the input's time field (every cell of a row is
 *       written at the event time);</li>
 *   <li>a cell of the row holding the field's value alone (a column {@code field=q}): text, or a
 *       32- or 64-bit number.</li>
 * </ol>
 * A part none of them gives -- a field the rows do not keep, a {@code uid} part -- is refused when
 * the translation is made, before a row is read. The same rule, with the layouts swapped, takes a
 * re-keyed row back to its old key (verification).
 */
public final class KeyTranslation {
    /** Where a field's value is kept in a row's cells. */
    public record FieldCell(String family, String qualifier, StoredColumns.Storage storage) {
    }

    /** A row's cells by family and qualifier, null for a cell the row lacks. */
    @FunctionalInterface
    public interface Cells {
        byte[] get(String family, String qualifier);
    }

    /** How one part of the new layout gets its value. */
    private interface PartSource {
        Object value(DecodedKey old, long cellTime, Cells cells);
    }

    private final RowKeyLayout from;
    private final RowKeyLayout to;
    private final PartSource[] sources;
    private final List<String> steps;

    private KeyTranslation(RowKeyLayout from, RowKeyLayout to, PartSource[] sources, List<String> steps) {
        this.from = from;
        this.to = to;
        this.sources = sources;
        this.steps = List.copyOf(steps);
    }

    /**
     * The translation from {@code from} to {@code to}.
     *
     * @param cells     where the table's rows keep field values, by field path
     * @param timeField the input's time field, whose value every cell's timestamp is (null if none)
     * @throws IllegalArgumentException naming the part of {@code to} no source gives, and why
     */
    public static KeyTranslation of(RowKeyLayout from, RowKeyLayout to, Map<String, FieldCell> cells, String timeField) {
        PartSource[] sources = new PartSource[to.parts().size()];
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < sources.length; i++) {
            KeyPart part = to.parts().get(i);
            String field = part.field();
            if (part.encoding().needsUids()) {
                throw new IllegalArgumentException("part " + part.spec() + " of layout " + to.spec() + ": a uid part "
                        + "is not re-keyed; use text (or md5) for " + field);
            }
            KeyPart old = from.parts().stream().filter(p -> p.field().equals(field)).findFirst().orElse(null);
            boolean sameDigest = old != null && old.encoding().token().equals("md5") && part.encoding().token().equals("md5");
            if (old != null && (sameDigest || old.encoding().recoverable() && !old.encoding().needsUids())) {
                sources[i] = (decoded, time, row) -> decoded.fields().get(field);
                steps.add(part.spec() + " <- key part " + old.spec());
            } else if (part.encoding().isTime() && field.equals(timeField)) {
                sources[i] = (decoded, time, row) -> time;
                steps.add(part.spec() + " <- the cells' time (the event time)");
            } else if (cells.containsKey(field)) {
                FieldCell cell = cells.get(field);
                sources[i] = (decoded, time, row) -> cellValue(part, cell, row.get(cell.family(), cell.qualifier()));
                steps.add(part.spec() + " <- cell " + cell.family() + ":" + cell.qualifier());
            } else {
                throw new IllegalArgumentException("part " + part.spec() + " of layout " + to.spec() + ": the rows keep "
                        + field + (old == null ? " neither in their key" : " in their key only as " + old.spec()
                        + ", which cannot be decoded,") + " nor in a column of its own; choose a layout without it, or "
                        + "add " + field + " to the columns and replay the records");
            }
        }
        return new KeyTranslation(from, to, sources, steps);
    }

    public RowKeyLayout from() {
        return from;
    }

    public RowKeyLayout to() {
        return to;
    }

    /** Where each part of the new layout comes from, one line per part, for a person to check. */
    public List<String> steps() {
        return steps;
    }

    /**
     * The key the row of key {@code key} has in the new layout.
     *
     * @param cellTime the timestamp of the row's cells
     * @throws IllegalArgumentException if the key does not fit the old layout, or the row lacks a
     *                                  cell a part needs (naming it)
     */
    public byte[] translate(byte[] key, long cellTime, Cells cells) {
        DecodedKey decoded = from.decode(key);
        Object[] values = new Object[sources.length];
        for (int i = 0; i < sources.length; i++) {
            values[i] = sources[i].value(decoded, cellTime, cells);
        }
        return to.encodeParts(values);
    }

    private static Object cellValue(KeyPart part, FieldCell cell, byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("the row has no cell " + cell.family() + ":" + cell.qualifier() + " for "
                    + part.spec());
        }
        return switch (cell.storage()) {
            case INT64 -> bytesToLong(bytes, 8, cell);
            case INT32 -> bytesToLong(bytes, 4, cell);
            case TEXT -> {
                String text = new String(bytes, StandardCharsets.UTF_8);
                if (part.encoding().textual()) {
                    yield text;
                }
                try {
                    yield Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("cell " + cell.family() + ":" + cell.qualifier() + " '" + text
                            + "' is no whole number for " + part.spec(), e);
                }
            }
            default -> throw new IllegalArgumentException("cell " + cell.family() + ":" + cell.qualifier()
                    + " holds " + cell.storage() + ", not a value of " + part.spec());
        };
    }

    private static long bytesToLong(byte[] bytes, int width, FieldCell cell) {
        if (bytes.length != width) {
            throw new IllegalArgumentException("cell " + cell.family() + ":" + cell.qualifier() + " has " + bytes.length
                    + " bytes, not " + width);
        }
        return width == 4 ? java.nio.ByteBuffer.wrap(bytes).getInt() : java.nio.ByteBuffer.wrap(bytes).getLong();
    }
}
