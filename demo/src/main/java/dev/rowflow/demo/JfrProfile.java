package dev.rowflow.demo;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a JFR recording of {@code rowflow run} says about where its time goes: the stream threads'
 * wall time split into the stages of a record (poll, deserialize, keying, mutate, flush, commit),
 * running and waiting apart, and the hottest methods of the whole process.
 *
 * <p>A stack is charged to the stage of the deepest frame that enters one (the mutate inside the
 * writer's {@code process} is mutate, not keying). Running time is counted from
 * {@code jdk.ExecutionSample} (Java code on CPU) and {@code jdk.NativeMethodSample} (in native code,
 * e.g. waiting in epoll), each weighted by its sampling period; waiting time from the durations of
 * {@code jdk.ThreadPark} and {@code jdk.JavaMonitorWait} events (those over the recording's
 * threshold). Recorded with {@code settings=profile}: samples every 10 ms (native 20 ms), waits
 * from 10 ms.
 */
final class JfrProfile {
    /** Stages in the order they are printed; {@code other} is the rest of the stream thread's loop. */
    static final List<String> STAGES = List.of("poll", "deserialize", "keying", "mutate", "flush", "commit", "other");

    /** A stream thread's name, not that of its consumer's or producer's threads. */
    private static final java.util.regex.Pattern STREAM_THREAD = java.util.regex.Pattern.compile("-StreamThread-\\d+$");

    /** Entry frames of each stage: class name prefix, and method (null: any). */
    private static final List<String[]> ENTRIES = List.of(
            new String[] {"poll", "org.apache.kafka.clients.consumer.", "poll"},
            new String[] {"deserialize", "org.apache.kafka.streams.processor.internals.RecordDeserializer", "deserialize"},
            new String[] {"deserialize", "dev.rowflow.pipeline.serde.", null},
            new String[] {"keying", "dev.rowflow.pipeline.topology.TopicWriter", "process"},
            new String[] {"keying", "dev.rowflow.pipeline.topology.JoinedRecordWriter", "process"},
            new String[] {"keying", "dev.rowflow.pipeline.topology.EventKeyer", "process"},
            new String[] {"mutate", "dev.rowflow.pipeline.topology.RowWriter", "write"},
            new String[] {"mutate", "dev.rowflow.sinks.hbase.HBaseRowSink", "write"},
            new String[] {"flush", "dev.rowflow.sinks.hbase.HBaseRowSink", "flush"},
            new String[] {"commit", "org.apache.kafka.streams.processor.internals.TaskManager", "commit"});

    /** Seconds of the stream threads per stage, running and waiting, and the hottest methods. */
    record Result(String recording, double seconds, int streamThreads, Map<String, Double> runningSeconds,
                  Map<String, Double> waitingSeconds, Map<String, Double> sharePercent,
                  List<String> hottestMethods, List<String> hottestStreamThreadMethods) {
    }

    private JfrProfile() {
    }

    static Result read(Path recording) throws IOException {
        Map<String, Double> running = zeros();
        Map<String, Double> waiting = zeros();
        Map<String, Integer> hottest = new HashMap<>();
        Map<String, Integer> hottestStream = new HashMap<>();
        java.util.Set<Long> streamThreads = new java.util.HashSet<>();
        java.time.Instant first = null;
        java.time.Instant last = null;
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            String type = event.getEventType().getName();
            first = first == null || event.getStartTime().isBefore(first) ? event.getStartTime() : first;
            last = last == null || event.getEndTime().isAfter(last) ? event.getEndTime() : last;
            boolean execution = type.equals("jdk.ExecutionSample");
            RecordedThread thread = switch (type) {
                case "jdk.ExecutionSample", "jdk.NativeMethodSample" -> event.getThread("sampledThread");
                case "jdk.ThreadPark", "jdk.JavaMonitorWait" -> event.getThread();
                default -> null;
            };
            if (thread == null || event.getStackTrace() == null) {
                continue;
            }
            boolean stream = thread.getJavaName() != null && STREAM_THREAD.matcher(thread.getJavaName()).find();
            if (execution) {
                hottest.merge(frameName(event.getStackTrace().getFrames().get(0)), 1, Integer::sum);
            }
            if (!stream) {
                continue;
            }
            streamThreads.add(thread.getJavaThreadId());
            String stage = stageOf(event.getStackTrace());
            switch (type) {
                case "jdk.ExecutionSample" -> {
                    running.merge(stage, 0.010, Double::sum);
                    hottestStream.merge(frameName(event.getStackTrace().getFrames().get(0)), 1, Integer::sum);
                }
                case "jdk.NativeMethodSample" -> waiting.merge(stage, 0.020, Double::sum);
                default -> waiting.merge(stage, event.getDuration().toNanos() / 1e9, Double::sum);
            }
        }
        double seconds = first == null ? 0 : Duration.between(first, last).toMillis() / 1000.0;
        double total = running.values().stream().mapToDouble(Double::doubleValue).sum()
                + waiting.values().stream().mapToDouble(Double::doubleValue).sum();
        Map<String, Double> share = new LinkedHashMap<>();
        for (String stage : STAGES) {
            share.put(stage, total == 0 ? 0 : round1(100 * (running.get(stage) + waiting.get(stage)) / total));
        }
        running.replaceAll((k, v) -> round2(v));
        waiting.replaceAll((k, v) -> round2(v));
        return new Result(recording.toString(), seconds, streamThreads.size(), running, waiting, share,
                top(hottest, 12), top(hottestStream, 12));
    }

    /** The stage of the deepest frame that enters one, walking from the thread's root to the leaf. */
    static String stageOf(RecordedStackTrace stack) {
        List<RecordedFrame> frames = stack.getFrames();
        String stage = "other";
        for (int i = frames.size() - 1; i >= 0; i--) {
            RecordedFrame frame = frames.get(i);
            if (!frame.isJavaFrame()) {
                continue;
            }
            String type = frame.getMethod().getType().getName();
            String method = frame.getMethod().getName();
            for (String[] entry : ENTRIES) {
                if (type.startsWith(entry[1]) && (entry[2] == null || method.equals(entry[2]))) {
                    stage = entry[0];
                    break;
                }
            }
        }
        return stage;
    }

    private static String frameName(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
    }

    /** The most frequent keys with their share of the samples, e.g. {@code "12.3% Put.addColumn"}. */
    private static List<String> top(Map<String, Integer> counts, int n) {
        int total = counts.values().stream().mapToInt(Integer::intValue).sum();
        return counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n)
                .map(e -> String.format("%.1f%% %s", 100.0 * e.getValue() / total, e.getKey())).toList();
    }

    private static Map<String, Double> zeros() {
        Map<String, Double> map = new LinkedHashMap<>();
        STAGES.forEach(stage -> map.put(stage, 0.0));
        return map;
    }

    private static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
