package dev.rowflow.pipeline.topology;

import dev.rowflow.keying.InvalidEventException;
import dev.rowflow.keying.Refusal;
import dev.rowflow.keying.Row;
import dev.rowflow.keying.format.ReadRecord;
import dev.rowflow.keying.mapping.RecordSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The declared inputs of one topic, which read it once: what each makes of a record, in
 * declaration order. A record an input sets aside is set aside whole -- no input writes anything
 * of it -- with the first such input's reason (every input still judges it: whose where does not
 * take it counts it); a record no input takes is set aside too when the topic says so
 * ({@code unrouted=dead-letter}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param inputs               the inputs, in declaration order, at least one
 * @param unroutedToDeadLetter whether a record no input's {@code where} takes is set aside
 */
public record TopicPlan(String topic, List<InputPlan> inputs, boolean unroutedToDeadLetter) {

    public TopicPlan {
        inputs = List.copyOf(inputs);
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no declared input reads topic " + topic);
        }
    }

    /**
     * What the inputs make of one record of the topic.
     *
     * @param decisions each input's decision, in declaration order
     * @param setAside  why the record is set aside whole, or null where its decisions are carried
     *                  out
     */
    public record Judgement(List<Decision> decisions, InvalidEventException setAside) {

        /** Whether no input took the record (its where, of every input). */
        public boolean unrouted() {
            return decisions.stream().allMatch(Decision.NotTaken.class::isInstance);
        }
    }

    /**
     * Judges {@code read} -- null for a tombstone -- by every input (see {@link InputPlan#decide}).
     *
     * @param store refuses a row the store would refuse
     */
    public Judgement judge(ReadRecord read, RecordSource source, Consumer<Row> store) {
        List<Decision> decisions = new ArrayList<>(inputs.size());
        InvalidEventException setAside = null;
        for (InputPlan input : inputs) {
            Decision decision = input.decide(read, source, store);
            decisions.add(decision);
            if (setAside == null && decision instanceof Decision.SetAside aside) {
                setAside = read != null && read.ordinal() > 0 ? aside.reason().inRecord(read.ordinal())
                        : aside.reason();
            }
        }
        if (setAside != null) {
            return new Judgement(decisions, setAside);
        }
        if (read != null && unroutedToDeadLetter && decisions.stream().allMatch(Decision.NotTaken.class::isInstance)) {
            InvalidEventException unrouted = new InvalidEventException(Refusal.UNROUTED,
                    "where", String.join(" | ", inputs.stream()
                    .map(input -> input.input() + ": " + input.where()).toList()), "no input of topic " + topic
                    + " takes it (unrouted=dead-letter)");
            return new Judgement(decisions, read.ordinal() > 0 ? unrouted.inRecord(read.ordinal()) : unrouted);
        }
        return new Judgement(decisions, null);
    }
}
