package dev.rowflow.deploy;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The alert rules, checked and unit-tested by promtool (skipped with a message where it is absent). */
class RulesTest {

    @Test
    void shouldPassPromtoolCheckRules() throws Exception {
        Path promtool = Promtool.require("promtool");

        Promtool.Result check = Promtool.run(Path.of("."), promtool.toString(), "check", "rules", Promtool.RULES.toString());

        assertThat(check.exitCode()).as("promtool check rules:%n%s", check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 9 rules found");
    }

    @Test
    void shouldFireEveryAlertOnItsUnitTestSeriesAndOnlyThen() throws Exception {
        Path promtool = Promtool.require("promtool");

        Promtool.Result test = Promtool.run(Path.of("prometheus"), promtool.toString(), "test", "rules", "rules.test.yaml");

        assertThat(test.exitCode()).as("promtool test rules:%n%s", test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
    }
}
