package dev.rowflow.pipeline.runtime;

import dev.rowflow.pipeline.config.RowflowConfig;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplayTest {
    private static final Instant FROM = Instant.parse("2026-11-20T10:00:00Z");

    @Test
    void shouldRunOnlyTheInputUnderItsOwnGroupAndNotAsTheRunningPipelinesStaticMember() {
        Map<String, String> props = declared();
        props.put("kafka.group.instance.id", "rowflow-0");
        Replay replay = Replay.of(new RowflowConfig(props), "clicks", FROM, null);

        RowflowConfig config = replay.replayConfig();

        assertThat(replay.group()).isEqualTo("app-replay-clicks");
        assertThat(config.getString(RowflowConfig.APPLICATION_ID_CONFIG)).isEqualTo("app-replay-clicks");
        assertThat(config.pipelines()).isEmpty();
        assertThat(config.originals()).containsEntry("inputs", "clicks").containsEntry("input.clicks.unrouted", "count")
                .containsEntry("kafka.commit.interval.ms", "1000").doesNotContainKey("kafka.group.instance.id")
                .doesNotContainKeys("input.views.topic", "input.views.key").containsKey("input.clicks.key");
        assertThat(Replay.of(new RowflowConfig(props), "logs", FROM, null).replayConfig().originals())
                .containsEntry("pipelines", "logs").containsEntry("inputs", "");
    }

    @Test
    void shouldRefuseWhatCannotBeReplayed() {
        Map<String, String> props = declared();
        props.put("input.views.join.input", "clicks");
        props.put("input.views.join.on", "user");
        props.put("input.views.join.field", "user");
        props.put("input.views.envelope", "debezium");
        props.put("input.clicks.envelope", "debezium");
        RowflowConfig config = new RowflowConfig(props);

        assertThatThrownBy(() -> Replay.of(config, "nosuch", FROM, null)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("--input").hasMessageContaining("no such input; this configuration runs [logs, clicks, views]");
        assertThatThrownBy(() -> Replay.of(config, "views", FROM, null))
                .hasMessageContaining("it joins another input");
        assertThatThrownBy(() -> Replay.of(config, "clicks", FROM, FROM)).hasMessageContaining("--to")
                .hasMessageContaining("must be after --from 2026-11-20T10:00:00Z");
    }

    private static Map<String, String> declared() {
        Map<String, String> props = new HashMap<>();
        props.put("application.id", "app");
        props.put("kafka.bootstrap.servers", "localhost:9092");
        props.put("hbase.zookeeper.quorum", "localhost");
        props.put("pipelines", "logs");
        props.put("inputs", "clicks, views");
        for (String input : new String[]{"clicks", "views"}) {
            props.put("input." + input + ".topic", input);
            props.put("input." + input + ".time", "at");
            props.put("input." + input + ".time.format", "epoch-ms");
            props.put("input." + input + ".key", "user:text, at:ts");
            props.put("input." + input + ".columns", "user=u");
        }
        return props;
    }
}
