package dev.rowflow.pipeline.registry;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.SchemaKind;

import java.util.Optional;

/**
 * The paths and kinds of values a Protobuf message type gives a record tree ({@link ProtobufTree}),
 * for checking a declaration at start-up: fields by their {@code .proto} names, a repeated field
 * an array, a map an object by any key, a message an object -- except Google's well-known types,
 * which the tree turns into text, numbers or JSON, and under which nothing is checked.
 */
final class ProtobufSchemaKinds {
    private ProtobufSchemaKinds() {
    }

    /** Why no message of {@code type} has a value at {@code path}, or empty. */
    static Optional<String> cannotYield(Descriptor type, FieldPath path) {
        return walk(type, path).why();
    }

    /**
     * What every value at {@code path} of a message of {@code type} is, or empty where the path
     * is not in it, under a well-known type, or of a kind a declaration is not checked against
     * (float, double, bytes).
     */
    static Optional<SchemaKind> kindAt(Descriptor type, FieldPath path) {
        Walk walk = walk(type, path);
        if (walk.why().isPresent() || walk.field() == null || walk.unchecked()) {
            return Optional.empty();
        }
        FieldDescriptor field = walk.field();
        if (walk.whole() && field.isRepeated()) {
            return Optional.of(field.isMapField() ? SchemaKind.OBJECT : SchemaKind.ARRAY);
        }
        return Optional.ofNullable(switch (field.getJavaType()) {
            case STRING, ENUM -> SchemaKind.TEXT;
            case INT, LONG -> SchemaKind.WHOLE_NUMBER;
            case BOOLEAN -> SchemaKind.BOOLEAN;
            case MESSAGE -> wellKnown(field.getMessageType()) ? null : SchemaKind.OBJECT;
            default -> null;
        });
    }

    /**
     * Where a path ends: its last field, whether the path names the field whole (not an element
     * or a map entry of it), whether it passed a well-known type, or why it is in no message.
     */
    private record Walk(FieldDescriptor field, boolean whole, boolean unchecked, Optional<String> why) {
    }

    private static Walk walk(Descriptor type, FieldPath path) {
        Descriptor message = type;
        FieldDescriptor field = null;
        boolean whole = true;
        String at = type.getFullName();
        for (Object step : path.steps()) {
            if (field != null && field.isRepeated() && whole) {
                whole = false; // an element (an index or [*]), or a map's entry (any key)
                if (field.isMapField()) {
                    field = field.getMessageType().findFieldByName("value");
                    message = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE ? field.getMessageType() : null;
                    if (step instanceof String) {
                        at = at + "." + step;
                        continue;
                    }
                } else if (!(step instanceof String)) {
                    at = at + "[" + step + "]";
                    continue;
                }
            }
            if (message == null || !(step instanceof String name)) {
                return new Walk(null, false, false, Optional.of(at + " is no message, so " + path
                        + " has nothing under it"));
            }
            if (wellKnown(message)) {
                return new Walk(null, false, true, Optional.empty());
            }
            field = message.findFieldByName(name);
            if (field == null) {
                return new Walk(null, false, false, Optional.of("message " + message.getFullName() + " has no field '"
                        + name + "'"));
            }
            whole = true;
            at = at + "." + name;
            message = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !field.isMapField()
                    ? field.getMessageType() : null;
        }
        return new Walk(field, whole, false, Optional.empty());
    }

    private static boolean wellKnown(Descriptor type) {
        return type.getFullName().startsWith("google.protobuf.");
    }
}
