package dev.rowflow.keying.mapping;

/**
 * What every value of a field is, by the schema of a format that has one (Avro): what a
 * declaration over the field can be checked against at start ({@code RecordFormat#kindAt}).
 */
public enum SchemaKind {
    /** Text: an Avro string or enum. */
    TEXT,
    /** A whole number: an Avro int or long without a logical type. */
    WHOLE_NUMBER,
    /** true or false. */
    BOOLEAN,
    /** A record or map: fields under it, no value of its own. */
    OBJECT,
    /** An array. */
    ARRAY;

    /** As the mapping's refusals name a kind of value. */
    public String described() {
        return switch (this) {
            case TEXT -> "text";
            case WHOLE_NUMBER -> "a whole number";
            case BOOLEAN -> "a boolean";
            case OBJECT -> "an object";
            case ARRAY -> "an array";
        };
    }
}
