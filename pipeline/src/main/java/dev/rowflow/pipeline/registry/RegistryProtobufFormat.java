package dev.rowflow.pipeline.registry;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.format.ReadRecord;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import io.apicurio.registry.utils.protobuf.schema.FileDescriptorUtils;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code protobuf-registry}: Protobuf in the Schema Registry wire format, as Confluent's
 * {@code KafkaProtobufSerializer} writes it:
 * <pre>
 * byte 0      magic byte, 0
 * bytes 1-4   schema id, big-endian, as the registry assigned it
 * bytes 5-    the message indexes: which message of the schema's .proto file the record is, as
 *             zig-zag varints -- their count, then each index (the top-level message, then the
 *             nested one within it, ...); a count of 0 alone stands for [0], the first message
 * then        the Protobuf bytes of that message
 * </pre>
 * The schema of an id is fetched once: its {@code .proto} text, and that of each file it imports,
 * through the schema's references (by their names, as the import statements write them). The text
 * is parsed with Square's wire-schema parser into protobuf-java descriptors by Apicurio's
 * {@code FileDescriptorUtils} -- the parser both Apicurio's and Confluent's Protobuf serdes use,
 * so a schema the registry took is read as its serializer meant it; {@code google/protobuf/*.proto}
 * well-known types are built in. At most {@code cacheCapacity} ids are kept, the first fetched
 * dropped first. Each record is read into a record tree as {@link ProtobufTree} says.
 *
 * <p>Set aside with the reason (the record's fault): no magic byte, an id the registry does not
 * know (404), an id of a schema that is not Protobuf or does not parse, message indexes the file
 * has no message at, a body that is not that message. Not the record's fault: an unavailable
 * registry, which {@link SchemaRegistryClient} waits out.
 */
public final class RegistryProtobufFormat extends RegistryFormat<RegistryProtobufFormat.Writer> {
    public static final String NAME = "protobuf-registry";
    private static final int[] FIRST_MESSAGE = {0};

    /** The message type a declaration is checked against at start-up, or null for none. */
    private final Descriptor reader;

    public RegistryProtobufFormat(SchemaRegistryClient registry, int cacheCapacity) {
        this(registry, null, cacheCapacity);
    }

    /**
     * @param reader the message type field paths and their kinds are checked against at start-up
     *               (records are still read with their own schema), or null for none
     */
    public RegistryProtobufFormat(SchemaRegistryClient registry, Descriptor reader, int cacheCapacity) {
        super(NAME, registry, cacheCapacity);
        this.reader = reader;
    }

    /**
     * The first message of the latest schema of {@code subject}, as its serializer writes by
     * default: what a declaration is checked against at start-up.
     *
     * @throws IllegalArgumentException if the subject is unknown, not Protobuf, or its schema does
     *                                  not parse
     */
    public static Descriptor latestMessage(SchemaRegistryClient registry, String subject) {
        SchemaRegistryClient.RegisteredSchema schema = registry.latestRegistered(subject);
        if (!schema.type().equals("PROTOBUF")) {
            throw new IllegalArgumentException("subject " + subject + " is a " + schema.type() + " schema, not Protobuf");
        }
        try {
            FileDescriptor file = fileDescriptor(subject + ".proto", schema, registry.referencesOf(schema));
            if (file.getMessageTypes().isEmpty()) {
                throw new IllegalArgumentException("subject " + subject + " has a Protobuf schema without messages");
            }
            return file.getMessageTypes().get(0);
        } catch (DescriptorValidationException | RuntimeException e) {
            throw new IllegalArgumentException("subject " + subject + " has a Protobuf schema that cannot be read: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public Optional<String> cannotYield(dev.rowflow.keying.mapping.FieldPath path) {
        return reader == null ? Optional.empty() : ProtobufSchemaKinds.cannotYield(reader, path);
    }

    @Override
    public Optional<dev.rowflow.keying.mapping.SchemaKind> kindAt(dev.rowflow.keying.mapping.FieldPath path) {
        return reader == null ? Optional.empty() : ProtobufSchemaKinds.kindAt(reader, path);
    }

    @Override
    public ReadRecord read(byte[] bytes) {
        int id = schemaId(bytes);
        Writer writer = schema(id);
        CodedInputStream in = CodedInputStream.newInstance(bytes, HEADER, bytes.length - HEADER);
        int[] indexes;
        try {
            indexes = indexes(in);
        } catch (IOException | RuntimeException e) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "(" + bytes.length + " bytes)", "has no message indexes after "
                    + "the schema id " + id + " (" + writer.file.getName() + "): " + e.getMessage());
        }
        Descriptor type = writer.message(indexes, id);
        Map<String, Object> tree;
        try {
            tree = ProtobufTree.read(type, in);
        } catch (IOException | RuntimeException e) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "(" + bytes.length + " bytes)", "is not a " + type.getFullName()
                    + " message of schema id " + id + ": " + e.getMessage());
        }
        return new ReadRecord(tree, () -> bytes);
    }

    /** The message indexes (see the class comment): a count, then that many, each a zig-zag varint. */
    private static int[] indexes(CodedInputStream in) throws IOException {
        int count = in.readSInt32();
        if (count == 0) {
            return FIRST_MESSAGE;
        }
        if (count < 0 || count > 64) {
            throw new IOException("a count of " + count + " message indexes");
        }
        int[] indexes = new int[count];
        for (int i = 0; i < count; i++) {
            indexes[i] = in.readSInt32();
        }
        return indexes;
    }

    @Override
    protected Writer build(int id) {
        Fetched fetched = fetch(id, "PROTOBUF", "Protobuf");
        FileDescriptor file;
        try {
            file = fileDescriptor("schema-" + id + ".proto", fetched.schema(), fetched.references());
        } catch (RuntimeException | DescriptorValidationException e) {
            // wire-schema's parser and linker throw their own unchecked exceptions for a schema they cannot take
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "schema id " + id, "has a Protobuf schema that cannot be read: "
                    + e.getMessage());
        }
        if (file.getMessageTypes().isEmpty()) {
            throw new InvalidEventException(Refusal.UNREADABLE,
                    "value", "schema id " + id, "has a Protobuf schema without messages");
        }
        return new Writer(file);
    }

    /**
     * The descriptor of {@code schema} (file name {@code name}), its imports built from
     * {@code references}, each by the name the import statement gives it, after those it imports
     * (the order of {@link SchemaRegistryClient#referencesOf}).
     */
    static FileDescriptor fileDescriptor(String name, SchemaRegistryClient.RegisteredSchema schema,
                                         Map<String, SchemaRegistryClient.RegisteredSchema> references)
            throws DescriptorValidationException {
        Map<String, String> texts = new LinkedHashMap<>();
        Map<String, FileDescriptor> built = new LinkedHashMap<>();
        for (Map.Entry<String, SchemaRegistryClient.RegisteredSchema> reference : references.entrySet()) {
            built.put(reference.getKey(), build(reference.getKey(), reference.getValue().text(), texts, built));
            texts.put(reference.getKey(), reference.getValue().text());
        }
        return build(name, schema.text(), texts, built);
    }

    /**
     * One file: parsed and linked by wire-schema with the texts of the files it may import (by
     * their import paths), then built by protobuf-java against the descriptors of those and of
     * the well-known types, under the name it is imported by.
     */
    private static FileDescriptor build(String name, String text, Map<String, String> imports,
                                        Map<String, FileDescriptor> built) throws DescriptorValidationException {
        String packageName = ProtoParser.Companion.parse(FileDescriptorUtils.DEFAULT_LOCATION, text).getPackageName();
        DescriptorProtos.FileDescriptorProto proto = FileDescriptorUtils.toFileDescriptorProto(text,
                name.substring(name.lastIndexOf('/') + 1), Optional.ofNullable(packageName), imports);
        List<FileDescriptor> dependencies = new ArrayList<>(List.of(FileDescriptorUtils.baseDependencies()));
        dependencies.addAll(built.values());
        return FileDescriptor.buildFrom(proto.toBuilder().setName(name).build(),
                dependencies.toArray(new FileDescriptor[0]));
    }

    /** A schema id's file, and the message types of it met so far by their indexes. */
    static final class Writer {
        final FileDescriptor file;
        private final ConcurrentHashMap<List<Integer>, Descriptor> messages = new ConcurrentHashMap<>();

        Writer(FileDescriptor file) {
            this.file = file;
        }

        Descriptor message(int[] indexes, int id) {
            List<Integer> key = indexes.length == 1 ? List.of(indexes[0]) : Arrays.stream(indexes).boxed().toList();
            Descriptor found = messages.get(key);
            if (found != null) {
                return found;
            }
            List<Descriptor> level = file.getMessageTypes();
            Descriptor type = null;
            for (int index : indexes) {
                if (index < 0 || index >= level.size()) {
                    throw new InvalidEventException(Refusal.UNREADABLE,
                            "value", "message indexes " + Arrays.toString(indexes),
                            "name no message of schema id " + id + " (" + file.getName() + ")");
                }
                type = level.get(index);
                level = type.getNestedTypes();
            }
            messages.put(key, type);
            return type;
        }
    }
}
