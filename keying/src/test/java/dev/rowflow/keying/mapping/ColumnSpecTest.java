package dev.rowflow.keying.mapping;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ColumnSpecTest {
    private static final String LIST = "message=m, log.level, labels.*, attributes.*=a.*, *=f.*, \"weird,name\"=w";

    private static void assertRefused(String list, String message) {
        assertThatThrownBy(() -> ColumnSpec.parseList(list))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void shouldParseTypedEntriesAndRefuseUnknownTypes() {
        List<ColumnSpec> columns = ColumnSpec.parseList("host.name:text=h, status:long=s, tags:json, \"a:b\"=q");
        assertThat(columns).extracting(ColumnSpec::type)
                .containsExactly(ValueType.TEXT, ValueType.LONG, ValueType.JSON, null);
        assertThat(columns).extracting(ColumnSpec::qualifier).containsExactly("h", "s", "tags", "q");
        assertThat(columns).extracting(ColumnSpec::spec)
                .containsExactly("host.name:text=h", "status:long=s", "tags:json", "\"a:b\"=q");
        assertThat(columns).noneMatch(ColumnSpec::noCellOnMismatch);
        assertThat(ColumnSpec.parseList("status:long=s", true)).allMatch(ColumnSpec::noCellOnMismatch);
        assertRefused("status:integer=s", "column 'status:integer=s': unknown type 'integer' (types: text, long, "
                + "number, bool, json, int32, int64)");
    }

    @Test
    void shouldParseEveryKindOfEntry() {
        List<ColumnSpec> columns = ColumnSpec.parseList(LIST);

        assertThat(columns).containsExactly(
                new ColumnSpec(FieldPath.parse("message"), "m", false),
                new ColumnSpec(FieldPath.parse("log.level"), "log.level", false),
                new ColumnSpec(FieldPath.parse("labels"), "labels.", true),
                new ColumnSpec(FieldPath.parse("attributes"), "a.", true),
                new ColumnSpec(null, "f.", true),
                new ColumnSpec(FieldPath.parse("\"weird,name\""), "w", false));
        assertThat(columns.get(5).path().steps()).containsExactly("weird,name");
    }

    @Test
    void shouldWriteTheSpecBack() {
        List<ColumnSpec> columns = ColumnSpec.parseList(LIST);

        assertThat(columns).extracting(ColumnSpec::spec).containsExactly(
                "message=m", "log.level", "labels.*", "attributes.*=a.*", "*=f.*", "\"weird,name\"=w");
        assertThat(ColumnSpec.parseList(String.join(", ", columns.stream().map(ColumnSpec::spec).toList())))
                .isEqualTo(columns);
    }

    @Test
    void shouldDefaultAWildcardsPrefixToItsPath() {
        assertThat(ColumnSpec.parseList("*")).containsExactly(new ColumnSpec(null, "", true));
        assertThat(ColumnSpec.parseList("*").get(0).spec()).isEqualTo("*");
        assertThat(ColumnSpec.parseList("labels.*=labels.*").get(0).spec()).isEqualTo("labels.*");
        assertThat(ColumnSpec.parseList("labels.*=*")).containsExactly(new ColumnSpec(FieldPath.parse("labels"), "", true));
        assertThat(ColumnSpec.parseList("labels.*=*").get(0).spec()).isEqualTo("labels.*=*");
        assertThat(ColumnSpec.parseList("message=message").get(0).spec()).isEqualTo("message");
    }

    @Test
    void shouldReadAQuotedNameWithAnEqualsSignAndTrimEntries() {
        assertThat(ColumnSpec.parseList("  \"a=b\"  ,\"c\"=  d ")).containsExactly(
                new ColumnSpec(FieldPath.parse("\"a=b\""), "\"a=b\"", false),
                new ColumnSpec(FieldPath.parse("\"c\""), "d", false));
        assertThat(ColumnSpec.parseList("tags[0]=t0")).containsExactly(new ColumnSpec(FieldPath.parse("tags[0]"), "t0", false));
    }

    @Test
    void shouldGiveNoColumnsForABlankList() {
        assertThat(ColumnSpec.parseList(null)).isEmpty();
        assertThat(ColumnSpec.parseList(" ")).isEmpty();
    }

    @Test
    void shouldRefuseAnEmptyEntry() {
        assertRefused("message=m,,log.level", "column list has an empty entry");
        assertRefused("message=m, ", "column list has an empty entry");
    }

    @Test
    void shouldRefuseAnEmptyQualifier() {
        assertRefused("a=", "column 'a=': empty qualifier after '='");
        assertRefused("a.*= ", "column 'a.*=': empty qualifier after '='");
    }

    @Test
    void shouldRefuseAWildcardQualifierThatIsNoPrefix() {
        assertRefused("a.*=x", "column 'a.*=x': a wildcard's qualifier is a prefix ending in '*', e.g. a.*=f.*");
        assertRefused("*=f*.*", "column '*=f*.*': a wildcard's qualifier is a prefix ending in '*', e.g. *=f.*");
    }

    @Test
    void shouldRefuseAStarInTheQualifierOfASingleValue() {
        assertRefused("a=q*", "column 'a=q*': '*' in the qualifier of a single value");
    }

    @Test
    void shouldRefuseABadPath() {
        assertRefused("a..b=x", "column 'a..b=x': field path 'a..b': expected a name or a quoted \"name\" at offset 2");
        assertRefused("=x", "column '=x': a field path or expression must not be empty");
        assertRefused("a.*.b", "column 'a.*.b': field path 'a.*.b': expected a name or a quoted \"name\" at offset 2");
        assertRefused("a[x].*", "column 'a[x].*': field path 'a[x]': expected an array index (0, 1, 2...) or * at offset 2");
    }
}
