package dev.rowflow.pipeline.cli;

import dev.rowflow.pipeline.runtime.InstanceStatus;
import dev.rowflow.pipeline.topology.StatusEvents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Prints a running instance's {@code /status} as a table a person reads. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Print how a running rowflow is doing: its state and, per input, state, partitions here, lag, "
                + "records in, rows out, dead letters, the last commit and the last record set aside (its /status).",
                "Exit code 0 when the instance is ready, 3 when it answers but is not ready."})
final class StatusCommand implements Callable<Integer> {
    static final int NOT_READY = 3;

    @Spec
    CommandSpec spec;

    @Option(names = "--url", required = true, paramLabel = "URL",
            description = "The instance's HTTP address (metrics.port), e.g. http://rowflow-0.rowflow:8080; "
                    + "/status is added unless the URL has a path.")
    URI url;

    @Option(names = "--json", description = "Print the JSON as served.")
    boolean json;

    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() throws Exception {
        URI statusUrl = url.getPath() == null || url.getPath().isEmpty() || url.getPath().equals("/")
                ? url.resolve("/status") : url;
        HttpResponse<String> response;
        try {
            response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(
                    HttpRequest.newBuilder(statusUrl).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("no answer from " + statusUrl + ": " + ErrorMessages.oneLine(e), e);
        }
        if (response.statusCode() != 200) {
            throw new IOException(statusUrl + " answered " + response.statusCode() + ": " + response.body().strip());
        }
        PrintWriter out = spec.commandLine().getOut();
        InstanceStatus status = InstanceStatus.fromJson(response.body());
        if (json) {
            out.print(response.body());
        } else {
            print(status, out);
        }
        out.flush();
        return status.ready() ? 0 : NOT_READY;
    }

    void print(InstanceStatus status, PrintWriter out) {
        out.printf("%s (rowflow %s): %s, %s, HBase %s, last commit %s%n", status.application(), status.version(),
                status.state(), status.ready() ? "ready" : "NOT READY",
                status.hbaseReachable() ? "reachable" : "UNREACHABLE", ago(status.lastCommit()));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"INPUT", "STATE", "TOPICS", "PARTITIONS", "LAG", "RECORDS IN", "ROWS OUT", "DEAD LETTERS",
                "LAST COMMIT", "LAST ERROR"});
        for (InstanceStatus.Input input : status.inputs()) {
            rows.add(new String[]{input.name(), input.state(), String.join(",", input.topics()),
                    Integer.toString(input.partitions()), input.lag() == null ? "-" : Long.toString(input.lag()),
                    Long.toString(input.recordsIn()), Long.toString(input.rowsOut()), Long.toString(input.deadLetters()),
                    ago(input.lastCommit()), error(input.lastError())});
        }
        int[] widths = new int[rows.get(0).length];
        rows.forEach(row -> {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        });
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
            }
            out.println(line.toString().stripTrailing());
        }
        if (status.lastFailure() != null) {
            StatusEvents.Failure failure = status.lastFailure();
            out.printf("last stream thread failure: %s (%s) in %s: %s%n", failure.at(), ago(failure.at()),
                    failure.thread(), failure.message());
        }
    }

    private String error(StatusEvents.DeadLetter error) {
        return error == null ? "-" : ago(error.at()) + " " + error.topic() + "-" + error.partition() + "@"
                + error.offset() + " " + error.reason() + (error.message() == null ? "" : ": " + error.message());
    }

    /** {@code 2026-11-29T07:50:00Z (12 s ago)}, or {@code never}. */
    private String ago(Instant at) {
        if (at == null) {
            return "never";
        }
        long seconds = Math.max(0, Duration.between(at, clock.instant()).toSeconds());
        return at + " (" + (seconds < 120 ? seconds + " s" : seconds < 7200 ? seconds / 60 + " min"
                : seconds / 3600 + " h") + " ago)";
    }
}
