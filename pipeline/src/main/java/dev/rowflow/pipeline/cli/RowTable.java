package dev.rowflow.pipeline.cli;

import dev.rowflow.keying.layout.DecodedKey;
import dev.rowflow.keying.layout.KeyPart;
import dev.rowflow.keying.layout.RowKeyLayout;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rows for a person to read: one column per key part with its value decoded, the cell time (unless
 * a key part is a time), then the row's cells, aligned. What {@code query input} and the demo's
 * read-back print.
 *
 * <p>How a decoded part reads: a time part ({@code ts}, {@code rts}) as an ISO-8601 instant, text
 * as {@code keys decode} prints it ({@link KeysCommand#printable}), a hashed part as {@code md5:}
 * and its hex digits, a number in decimal; the salt, when the layout has one, first.
 */
public final class RowTable {
    private final RowKeyLayout layout;
    private final List<Map<String, String>> keys = new ArrayList<>();
    private final List<String> times = new ArrayList<>();
    private final List<Map<String, String>> cells = new ArrayList<>();
    private final Set<String> qualifiers = new LinkedHashSet<>();

    public RowTable(RowKeyLayout layout) {
        this.layout = layout;
    }

    /** Adds a row: its key, its cells' time (epoch ms) and its cells by qualifier, as text. */
    public RowTable add(byte[] rowKey, long time, Map<String, String> rowCells) {
        keys.add(keyFields(layout, rowKey));
        times.add(Instant.ofEpochMilli(time).toString());
        cells.add(rowCells);
        qualifiers.addAll(rowCells.keySet());
        return this;
    }

    /**
     * The decoded parts of {@code rowKey} by part field, each as the table prints it, after
     * {@code salt} when the layout has one.
     */
    public static Map<String, String> keyFields(RowKeyLayout layout, byte[] rowKey) {
        DecodedKey decoded = layout.decode(rowKey);
        Map<String, String> fields = new LinkedHashMap<>();
        if (decoded.salt() != null) {
            fields.put("salt", String.valueOf(decoded.salt()));
        }
        for (KeyPart part : layout.parts()) {
            fields.put(part.field(), partText(part, decoded.fields().get(part.field())));
        }
        return fields;
    }

    /** A decoded part's value as a person reads it. */
    static String partText(KeyPart part, Object value) {
        if (part.encoding().isTime() && value instanceof Long millis) {
            return Instant.ofEpochMilli(millis).toString();
        }
        return value instanceof String text ? KeysCommand.printable(text) : String.valueOf(value);
    }

    /** Prints the table, each line after {@code indent}; a row without a cell leaves it blank. */
    public void print(PrintWriter out, String indent) {
        List<String[]> table = new ArrayList<>();
        boolean timeInKey = layout.parts().stream().anyMatch(part -> part.encoding().isTime());
        List<String> header = new ArrayList<>(keyHeader());
        if (!timeInKey) {
            header.add("time");
        }
        header.addAll(qualifiers);
        table.add(header.toArray(String[]::new));
        for (int i = 0; i < keys.size(); i++) {
            List<String> row = new ArrayList<>(keys.get(i).values());
            if (!timeInKey) {
                row.add(times.get(i));
            }
            for (String qualifier : qualifiers) {
                row.add(cells.get(i).getOrDefault(qualifier, ""));
            }
            table.add(row.toArray(String[]::new));
        }
        print(table, out, indent);
    }

    private List<String> keyHeader() {
        List<String> header = new ArrayList<>();
        if (layout.salt().width() > 0) {
            header.add("salt");
        }
        layout.parts().forEach(part -> header.add(part.field()));
        return header;
    }

    /** Prints {@code rows} (the first the header) in aligned columns, each line after {@code indent}. */
    public static void print(List<String[]> rows, PrintWriter out, String indent) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], i == row.length - 1 ? 0 : row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder(indent);
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
