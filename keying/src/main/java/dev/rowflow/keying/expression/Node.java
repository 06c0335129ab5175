package dev.rowflow.keying.expression;

import dev.rowflow.keying.mapping.FieldPath;
import dev.rowflow.keying.mapping.RecordSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One node of a parsed expression: a value ({@link Nodes}) or a condition ({@link Conditions}).
 * What an {@link Expression} answers it asks of its root, which asks its children.
 */
interface Node {
    Object eval(Map<String, Object> record, RecordSource source);

    /** See {@link Expression#evaluate(Map, RecordSource, Predicate)}: fallbacks override it. */
    default Object evalAccepting(Map<String, Object> record, RecordSource source, Predicate<Object> accepts) {
        return eval(record, source);
    }

    Expression.Kind kind();

    /** Whether it reads the record's value only: so do all its children, by default. */
    default boolean readsValueOnly() {
        return children().stream().allMatch(Node::readsValueOnly);
    }

    /** Why no record could give it a value: one of its children cannot, by default. */
    default Optional<String> cannotYield(Function<FieldPath, Optional<String>> yield) {
        return anyCannotYield(children(), yield);
    }

    /** The expressions it is made of (a call's arguments...), none for a value. */
    default List<Node> children() {
        return List.of();
    }

    /** Gives {@code action} each path of the record's value it reads, every fallback's too. */
    default void forEachPath(Consumer<FieldPath> action) {
        children().forEach(child -> child.forEachPath(action));
    }

    /** Gives {@code action} each source ({@code $key}, {@code $op}...) it reads. */
    default void forEachSource(Consumer<Source> action) {
        children().forEach(child -> child.forEachSource(action));
    }

    /** Gives {@code action} the alias of each {@code $position} it reads, {@code ""} for {@code $ordinal}. */
    default void forEachElementSource(Consumer<String> action) {
        children().forEach(child -> child.forEachElementSource(action));
    }

    /** Why one of {@code nodes} cannot have a value (then neither can their expression), or empty. */
    static Optional<String> anyCannotYield(List<Node> nodes, Function<FieldPath, Optional<String>> yield) {
        for (Node node : nodes) {
            Optional<String> why = node.cannotYield(yield);
            if (why.isPresent()) {
                return why;
            }
        }
        return Optional.empty();
    }

    /** Why none of a fallback's {@code choices} can have a value (all their reasons), or empty if one can. */
    static <T> Optional<String> noneCanYield(List<T> choices, Function<T, Optional<String>> why) {
        List<String> reasons = new ArrayList<>();
        for (T choice : choices) {
            Optional<String> reason = why.apply(choice);
            if (reason.isEmpty()) {
                return Optional.empty();
            }
            reasons.add(reason.get());
        }
        return Optional.of(String.join("; ", reasons));
    }
}
