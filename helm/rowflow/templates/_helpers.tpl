{{/*
Paths inside the container. The image's entrypoint reads the properties file given by the args;
the other paths are written into that file, so they are declared once, here.
*/}}
{{- define "rowflow.configDir" -}}/etc/rowflow{{- end -}}
{{- define "rowflow.kafkaTlsDir" -}}/etc/rowflow/kafka-tls{{- end -}}
{{- define "rowflow.hbaseSiteDir" -}}/etc/rowflow/hbase{{- end -}}
{{- define "rowflow.hbaseKeytabDir" -}}/etc/rowflow/hbase-keytab{{- end -}}
{{- define "rowflow.kafkaKeytabDir" -}}/etc/rowflow/kafka-keytab{{- end -}}
{{- /* "true" when Kafka is reached with SASL/GSSAPI (Kerberos), else empty. */}}
{{- define "rowflow.kafkaGssapi" -}}
{{- if and .Values.kafka.sasl.enabled (eq .Values.kafka.sasl.mechanism "GSSAPI") }}true{{ end }}
{{- end -}}
{{- /* The keytab rowflow logs in to Kafka with: its own Secret's, or HBase's. */}}
{{- define "rowflow.kafkaKeytabPath" -}}
{{- $k := .Values.kafka.sasl.kerberos }}
{{- if $k.secretName }}
{{- printf "%s/%s" (include "rowflow.kafkaKeytabDir" .) $k.keytabKey }}
{{- else if .Values.hbase.kerberos.enabled }}
{{- printf "%s/%s" (include "rowflow.hbaseKeytabDir" .) .Values.hbase.kerberos.keytabKey }}
{{- else }}
{{- fail "kafka.sasl.kerberos.secretName is required with kafka.sasl.mechanism GSSAPI unless hbase.kerberos.enabled (whose keytab then serves both)" }}
{{- end }}
{{- end -}}
{{- define "rowflow.krb5Dir" -}}/etc/rowflow/krb5{{- end -}}
{{- define "rowflow.registryTlsDir" -}}/etc/rowflow/registry-tls{{- end -}}
{{- define "rowflow.bigtableDir" -}}/etc/rowflow/bigtable{{- end -}}
{{- define "rowflow.stateDir" -}}/var/lib/rowflow/state{{- end -}}
{{- define "rowflow.metricsPort" -}}8080{{- end -}}

{{/*
Chart name, or nameOverride.
*/}}
{{- define "rowflow.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified name: the release name, with the chart name unless the release name holds it.
Truncated to 63 characters, the limit of a DNS label.
*/}}
{{- define "rowflow.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
A name derived from the full name and a suffix, still at most 63 characters.
Usage: include "rowflow.suffixedName" (list . "dashboard")
*/}}
{{- define "rowflow.suffixedName" -}}
{{- $root := index . 0 }}
{{- $suffix := index . 1 }}
{{- $base := include "rowflow.fullname" $root | trunc (int (sub 62 (len $suffix))) | trimSuffix "-" }}
{{- printf "%s-%s" $base $suffix }}
{{- end }}

{{/*
Chart name and version, as used by the helm.sh/chart label.
*/}}
{{- define "rowflow.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels of every object.
*/}}
{{- define "rowflow.labels" -}}
helm.sh/chart: {{ include "rowflow.chart" . }}
{{ include "rowflow.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | replace "+" "_" | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
Labels selecting the rowflow pods. Immutable in a Deployment's selector: do not change.
*/}}
{{- define "rowflow.selectorLabels" -}}
app.kubernetes.io/name: {{ include "rowflow.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Labels of the helm test pod. Its name label differs from the pods' so that neither the
Deployment's ReplicaSet (which adopts orphan pods its selector matches) nor the Service select it.
*/}}
{{- define "rowflow.testSelectorLabels" -}}
app.kubernetes.io/name: {{ printf "%s-test" (include "rowflow.name" .) | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Name of the ServiceAccount the pods run as.
*/}}
{{- define "rowflow.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "rowflow.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
Image reference: repository@digest when a digest is set, else repository:tag (tag defaulting to
the chart's appVersion).
*/}}
{{- define "rowflow.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/*
Kafka security.protocol, from whether TLS and SASL are enabled.
*/}}
{{- define "rowflow.securityProtocol" -}}
{{- $tls := .Values.kafka.tls.enabled }}
{{- $sasl := .Values.kafka.sasl.enabled }}
{{- if and $tls $sasl }}SASL_SSL
{{- else if $tls }}SSL
{{- else if $sasl }}SASL_PLAINTEXT
{{- else }}PLAINTEXT
{{- end }}
{{- end }}

{{/*
JAAS login module of the configured SASL mechanism.
*/}}
{{- define "rowflow.saslLoginModule" -}}
{{- if eq .Values.kafka.sasl.mechanism "PLAIN" -}}
org.apache.kafka.common.security.plain.PlainLoginModule
{{- else -}}
org.apache.kafka.common.security.scram.ScramLoginModule
{{- end -}}
{{- end }}

{{/*
JAVA_TOOL_OPTIONS: heap and young generation sizing, exit on OutOfMemoryError (a stream thread that dies of it would
otherwise leave a live process that ingests nothing), the krb5.conf with Kerberos, then the
user's options, which come last and so win.
*/}}
{{- define "rowflow.javaToolOptions" -}}
{{- $gc := dict "serial" "-XX:+UseSerialGC" "parallel" "-XX:+UseParallelGC" "g1" "-XX:+UseG1GC" }}
{{- $opts := list (printf "-XX:MaxRAMPercentage=%.1f" (float64 .Values.jvm.maxRamPercentage)) (get $gc .Values.jvm.gc) "-XX:+ExitOnOutOfMemoryError" }}
{{- if and (ne .Values.jvm.gc "g1") (gt (int .Values.jvm.youngGenerationMiB) 0) }}
{{- $opts = append $opts (printf "-Xmn%dm" (int .Values.jvm.youngGenerationMiB)) }}
{{- end }}
{{- if and (or .Values.hbase.kerberos.enabled (include "rowflow.kafkaGssapi" .)) .Values.hbase.kerberos.krb5ConfigMap }}
{{- $opts = append $opts (printf "-Djava.security.krb5.conf=%s/%s" (include "rowflow.krb5Dir" .) .Values.hbase.kerberos.krb5ConfigKey) }}
{{- end }}
{{- with .Values.jvm.extraOptions }}
{{- $opts = append $opts . }}
{{- end }}
{{- join " " $opts }}
{{- end }}

{{/*
The rowflow keys the chart derives from its values, as a YAML map of strings. Secrets are never
among them: those reach the container as ROWFLOW_CONFIG_* variables from secretKeyRefs.
*/}}
{{/*
The workload: a StatefulSet with static group membership (its pods' names, the members' ids,
survive a restart), a Deployment otherwise.
*/}}
{{- define "rowflow.workloadKind" -}}
{{- if .Values.groupMembership.static }}StatefulSet{{ else }}Deployment{{ end }}
{{- end -}}

{{- define "rowflow.chartProperties" -}}
{{- $v := .Values }}
{{- $p := dict }}
{{- $_ := set $p "application.id" $v.config.applicationId }}
{{- $_ = set $p "pipelines" (join "," $v.config.pipelines) }}
{{- $_ = set $p "topic.logs" $v.config.topics.logs }}
{{- $_ = set $p "topic.logs.dead.letter" $v.config.topics.logsDeadLetter }}
{{- $_ = set $p "topic.customers" $v.config.topics.customers }}
{{- $_ = set $p "topic.customers.dead.letter" $v.config.topics.customersDeadLetter }}
{{- $_ = set $p "topic.orders" $v.config.topics.orders }}
{{- $_ = set $p "topic.orders.dead.letter" $v.config.topics.ordersDeadLetter }}
{{- $_ = set $p "orders.design" $v.config.orders.design }}
{{- $_ = set $p "orders.customer.plus.plus" (toString $v.config.orders.customerPlusPlus) }}
{{- /* Declared inputs: inputs=<names>, then each input's input.<name>.* keys */}}
{{- $names := list }}
{{- range $in := $v.config.inputs }}
{{- if has $in.name $names }}
{{- fail (printf "config.inputs names the input %q twice: each input needs its own name" $in.name) }}
{{- end }}
{{- $names = append $names $in.name }}
{{- range $key, $value := include "rowflow.inputProperties" $in | fromYaml }}
{{- $_ = set $p $key $value }}
{{- end }}
{{- end }}
{{- if and (empty $v.config.pipelines) (empty $names) }}
{{- fail "config.pipelines is empty and config.inputs declares no input: rowflow would ingest nothing; name a pipeline (logs, orders) or declare an input" }}
{{- end }}
{{- $_ = set $p "inputs" (join "," $names) }}
{{- $_ = set $p "metrics.port" (include "rowflow.metricsPort" .) }}
{{- $_ = set $p "shutdown.timeout.ms" (toString (mul (int64 $v.shutdownTimeoutSeconds) 1000)) }}
{{- /* Kafka */}}
{{- $_ = set $p "kafka.bootstrap.servers" (required "kafka.bootstrapServers is required: the Kafka brokers, host:port[,host:port...]" $v.kafka.bootstrapServers) }}
{{- $_ = set $p "kafka.state.dir" (include "rowflow.stateDir" .) }}
{{- $_ = set $p "kafka.num.standby.replicas" (toString $v.standbyReplicas) }}
{{- if $v.groupMembership.static }}
{{- /* kafka.group.instance.id is the pod's name, from the environment (the Deployment template). */}}
{{- $_ = set $p "kafka.session.timeout.ms" (toString (mul (int64 $v.groupMembership.sessionTimeoutSeconds) 1000)) }}
{{- end }}
{{- $_ = set $p "kafka.security.protocol" (include "rowflow.securityProtocol" .) }}
{{- if $v.kafka.tls.enabled }}
{{- $_ = set $p "kafka.ssl.truststore.location" (printf "%s/%s" (include "rowflow.kafkaTlsDir" .) (required "kafka.tls.truststoreKey is required when kafka.tls.enabled is true: the key of the truststore in kafka.tls.secretName" $v.kafka.tls.truststoreKey)) }}
{{- $_ = set $p "kafka.ssl.truststore.type" $v.kafka.tls.truststoreType }}
{{- if $v.kafka.tls.keystoreKey }}
{{- $_ = set $p "kafka.ssl.keystore.location" (printf "%s/%s" (include "rowflow.kafkaTlsDir" .) $v.kafka.tls.keystoreKey) }}
{{- $_ = set $p "kafka.ssl.keystore.type" $v.kafka.tls.keystoreType }}
{{- end }}
{{- end }}
{{- if $v.kafka.sasl.enabled }}
{{- $_ = set $p "kafka.sasl.mechanism" $v.kafka.sasl.mechanism }}
{{- if include "rowflow.kafkaGssapi" . }}
{{- $k := $v.kafka.sasl.kerberos }}
{{- $principal := required "kafka.sasl.kerberos.principal is required with kafka.sasl.mechanism GSSAPI: rowflow's principal in the keytab, e.g. rowflow@EXAMPLE.COM" $k.principal }}
{{- $_ = set $p "kafka.sasl.kerberos.service.name" $k.serviceName }}
{{- /* No secret in it: the keytab's path and the principal. */}}
{{- $_ = set $p "kafka.sasl.jaas.config" (printf "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true keyTab=\"%s\" principal=\"%s\";" (include "rowflow.kafkaKeytabPath" .) $principal) }}
{{- end }}
{{- end }}
{{- $_ = set $p "store" $v.store }}
{{- if eq $v.store "bigtable" }}
{{- /* Bigtable */}}
{{- $_ = set $p "bigtable.project.id" (required "bigtable.projectId is required when store is bigtable: the Google Cloud project of the instance" $v.bigtable.projectId) }}
{{- $_ = set $p "bigtable.instance.id" (required "bigtable.instanceId is required when store is bigtable" $v.bigtable.instanceId) }}
{{- else }}
{{- /* HBase */}}
{{- $_ = set $p "hbase.zookeeper.quorum" (required "hbase.zookeeperQuorum is required: the ZooKeeper quorum of the HBase cluster, host:port[,host:port...]" $v.hbase.zookeeperQuorum) }}
{{- $_ = set $p "zookeeper.znode.parent" $v.hbase.znodeParent }}
{{- if $v.hbase.siteSecret.name }}
{{- $_ = set $p "hbase.site.path" (printf "%s/hbase-site.xml" (include "rowflow.hbaseSiteDir" .)) }}
{{- end }}
{{- with $v.hbase.kerberos }}
{{- if .enabled }}
{{- $principal := required "hbase.kerberos.principal is required when hbase.kerberos.enabled is true: rowflow's principal in the keytab, e.g. rowflow@EXAMPLE.COM" .principal }}
{{- $_ = set $p "hbase.security.authentication" "kerberos" }}
{{- $_ = set $p "hadoop.security.authentication" "kerberos" }}
{{- $_ = set $p "hbase.client.keytab.file" (printf "%s/%s" (include "rowflow.hbaseKeytabDir" $) .keytabKey) }}
{{- /* hbase-client's AuthUtil.loginClient reads hbase.client.keytab.principal; hbase.client.kerberos.principal is the name other HBase clients use. */}}
{{- $_ = set $p "hbase.client.keytab.principal" $principal }}
{{- $_ = set $p "hbase.client.kerberos.principal" $principal }}
{{- $_ = set $p "hbase.master.kerberos.principal" .masterPrincipal }}
{{- $_ = set $p "hbase.regionserver.kerberos.principal" .regionServerPrincipal }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $p }}
{{- end }}

{{/*
A value written into a properties file: backslashes and line breaks escaped as
java.util.Properties#load reads them, and leading blanks too (load would drop them); a
whole-number float (how YAML numbers reach templates) written as an integer, not in exponent
notation. `|`, `:`, `,`, `@`, `=` and inner spaces need no escaping in a value.
*/}}
{{- define "rowflow.propertiesValue" -}}
{{- $value := . }}
{{- if and (kindIs "float64" $value) (eq $value (floor $value)) }}
{{- $value = int64 $value }}
{{- end }}
{{- $value = toString $value | replace "\\" "\\\\" | replace "\n" "\\n" | replace "\r" "\\r" | replace "\t" "\\t" | replace "\f" "\\f" }}
{{- if hasPrefix " " $value }}
{{- $value = printf "\\%s" $value }}
{{- end }}
{{- $value }}
{{- end }}

{{/*
The family settings of one table of a declared input, as a YAML map of key suffixes to strings:
ttlSeconds -> <table key>.ttl.seconds and so on, for the keys the values set.
Usage: include "rowflow.tableSettings" (list "table" .tableSettings)
*/}}
{{- define "rowflow.tableSettings" -}}
{{- $table := index . 0 }}
{{- $settings := default (dict) (index . 1) }}
{{- $p := dict }}
{{- range $field, $suffix := dict "ttlSeconds" "ttl.seconds" "cellTtlMs" "cell.ttl.ms" "maxVersions" "max.versions" "minVersions" "min.versions" "blockSize" "block.size" }}
{{- if hasKey $settings $field }}
{{- $_ := set $p (printf "%s.%s" $table $suffix) (toString (int64 (get $settings $field))) }}
{{- end }}
{{- end }}
{{- range $field, $suffix := dict "bloom" "bloom" "compression" "compression" }}
{{- if hasKey $settings $field }}
{{- $_ := set $p (printf "%s.%s" $table $suffix) (get $settings $field) }}
{{- end }}
{{- end }}
{{- toYaml $p }}
{{- end }}

{{/*
The keys of one item of config.inputs, as a YAML map of full keys (input.<name>.<key>) to
strings: only the keys the item sets, so rowflow's own defaults apply to the others. The key
names mirror InputConfig#definition (`rowflow config` lists them).
*/}}
{{- define "rowflow.inputProperties" -}}
{{- $in := . }}
{{- $at := printf "config.inputs[%s]" $in.name }}
{{- $k := dict }}
{{- $_ := set $k "topic" $in.topic }}
{{- if hasKey $in "format" }}
{{- $_ = set $k "format" $in.format }}
{{- end }}
{{- if hasKey $in "deadLetterTopic" }}
{{- $_ = set $k "dead.letter.topic" $in.deadLetterTopic }}
{{- end }}
{{- if eq (default "json" $in.format) "avro" }}
{{- if empty $in.avroSchemas }}
{{- fail (printf "%s.avroSchemas is required with format avro: the .avsc files of its records, the reader schema first" $at) }}
{{- end }}
{{- else if $in.avroSchemas }}
{{- fail (printf "%s.avroSchemas is only read with format avro; this input's format is json" $at) }}
{{- end }}
{{- with $in.avroSchemas }}
{{- $_ = set $k "avro.schemas" (join "," .) }}
{{- end }}
{{- $format := default "json" $in.format }}
{{- if has $format (list "avro-registry" "protobuf-registry" "json-schema-registry") }}
{{- $r := required (printf "%s.registry is required with format %s: at least its urls" $at $format) $in.registry }}
{{- $_ = set $k "registry.url" (join "," (required (printf "%s.registry.urls is required with format %s" $at $format) $r.urls)) }}
{{- if and (ne $format "avro-registry") (or $r.readerSubject $r.readerSchema) }}
{{- fail (printf "%s.registry: readerSubject and readerSchema are for format avro-registry; %s reads each record with its own schema" $at $format) }}
{{- end }}
{{- if and $r.readerSubject $r.readerSchema }}
{{- fail (printf "%s.registry: give readerSubject or readerSchema, not both" $at) }}
{{- end }}
{{- range $field, $key := dict "readerSubject" "registry.reader.subject" "readerSchema" "registry.reader.schema" }}
{{- if hasKey $r $field }}
{{- $_ = set $k $key (get $r $field) }}
{{- end }}
{{- end }}
{{- range $field, $key := dict "cacheIds" "registry.cache.ids" "requestTimeoutMs" "registry.request.timeout.ms" "retryBackoffMaxMs" "registry.retry.backoff.max.ms" }}
{{- if hasKey $r $field }}
{{- $_ = set $k $key (toString (int64 (get $r $field))) }}
{{- end }}
{{- end }}
{{- if or $r.basicAuthSecret $r.truststore }}
{{- if regexMatch "[-_]" $in.name }}
{{- fail (printf "%s.registry: credentials reach rowflow as ROWFLOW_CONFIG_INPUT_<NAME>_* variables, which cannot name an input with '-' or '_' in its name (%s)" $at $in.name) }}
{{- end }}
{{- end }}
{{- with $r.truststore }}
{{- $_ = set $k "registry.ssl.truststore.location" (printf "%s/%s/%s" (include "rowflow.registryTlsDir" $) $in.name (required (printf "%s.registry.truststore.key is required" $at) .key)) }}
{{- end }}
{{- else if $in.registry }}
{{- fail (printf "%s.registry is only read with formats avro-registry, protobuf-registry and json-schema-registry" $at) }}
{{- end }}
{{- $_ = set $k "time" $in.time.path }}
{{- range $field, $key := dict "format" "time.format" "zone" "time.zone" "missing" "time.missing" }}
{{- if hasKey $in.time $field }}
{{- $_ = set $k $key (get $in.time $field) }}
{{- end }}
{{- end }}
{{- range $field, $key := dict "table" "table" "key" "key" "columns" "columns" "family" "family" "envelope" "envelope" "beforeImage" "before.image" "where" "where" "unrouted" "unrouted" "tombstones" "tombstones" "deleteWhen" "delete.when" "ttlMs" "ttl.ms" }}
{{- if hasKey $in $field }}
{{- $_ = set $k $key (get $in $field) }}
{{- end }}
{{- end }}
{{- with $in.join }}
{{- $_ = set $k "join.input" .input }}
{{- $_ = set $k "join.on" .foreignKey }}
{{- $_ = set $k "join.field" .field }}
{{- if hasKey . "as" }}
{{- $_ = set $k "join.as" .as }}
{{- end }}
{{- end }}
{{- range $field, $key := dict "timeBucketSeconds" "time.bucket.seconds" "maxCellBytes" "max.cell.bytes" }}
{{- if hasKey $in $field }}
{{- $_ = set $k $key (toString (int64 (get $in $field))) }}
{{- end }}
{{- end }}
{{- $k = merge $k (include "rowflow.tableSettings" (list "table" $in.tableSettings) | fromYaml) }}
{{- $indexes := list }}
{{- range $in.indexes }}
{{- if has .name $indexes }}
{{- fail (printf "%s.indexes names the index %q twice" $at .name) }}
{{- end }}
{{- $indexes = append $indexes .name }}
{{- $_ = set $k (printf "index.%s.key" .name) .key }}
{{- if hasKey . "whenMissing" }}
{{- $_ = set $k (printf "index.%s.when.missing" .name) .whenMissing }}
{{- end }}
{{- if hasKey . "table" }}
{{- $_ = set $k (printf "index.%s.table" .name) .table }}
{{- end }}
{{- $k = merge $k (include "rowflow.tableSettings" (list (printf "index.%s.table" .name) .tableSettings) | fromYaml) }}
{{- end }}
{{- if $indexes }}
{{- if gt (int64 (default 0 $in.timeBucketSeconds)) 0 }}
{{- fail (printf "%s: timeBucketSeconds > 0 writes rows as columns, which have no index rows: drop the indexes or set timeBucketSeconds to 0" $at) }}
{{- end }}
{{- $_ = set $k "indexes" (join "," $indexes) }}
{{- end }}
{{- $rows := list }}
{{- range $in.rows }}
{{- if has .name $rows }}
{{- fail (printf "%s.rows names the rows %q twice" $at .name) }}
{{- end }}
{{- $rows = append $rows .name }}
{{- $_ = set $k (printf "rows.%s.each" .name) .each }}
{{- $_ = set $k (printf "rows.%s.key" .name) .key }}
{{- $_ = set $k (printf "rows.%s.columns" .name) .columns }}
{{- if hasKey . "table" }}
{{- $_ = set $k (printf "rows.%s.table" .name) .table }}
{{- end }}
{{- $k = merge $k (include "rowflow.tableSettings" (list (printf "rows.%s.table" .name) .tableSettings) | fromYaml) }}
{{- end }}
{{- if $rows }}
{{- $_ = set $k "rows" (join "," $rows) }}
{{- end }}
{{- with $in.summary }}
{{- $_ = set $k "summary.key" .key }}
{{- if hasKey . "table" }}
{{- $_ = set $k "summary.table" .table }}
{{- end }}
{{- if hasKey . "periodSeconds" }}
{{- $_ = set $k "summary.period.seconds" (toString (int64 .periodSeconds)) }}
{{- end }}
{{- $k = merge $k (include "rowflow.tableSettings" (list "summary.table" .tableSettings) | fromYaml) }}
{{- end }}
{{- range $key, $value := $in.extra }}
{{- if has $key (list "registry.basic.auth.user.info" "registry.ssl.truststore.password") }}
{{- fail (printf "%s.extra.%s is a secret: give it through registry.basicAuthSecret or registry.truststore (a Secret), never in the ConfigMap" $at $key) }}
{{- end }}
{{- if hasKey $k $key }}
{{- fail (printf "%s.extra.%s is set by the chart from the input's own values; set it there, not in extra" $at $key) }}
{{- end }}
{{- if and (kindIs "float64" $value) (eq $value (floor $value)) }}
{{- $value = int64 $value }}
{{- end }}
{{- $_ = set $k $key (toString $value) }}
{{- end }}
{{- $p := dict }}
{{- range $key, $value := $k }}
{{- $_ = set $p (printf "input.%s.%s" $in.name $key) $value }}
{{- end }}
{{- toYaml $p }}
{{- end }}

{{/*
rowflow.properties: the keys derived from the values, then config.extra, sorted by key.
A config.extra key the chart derives is refused (it would silently fight the value it comes from),
and so is one that names a secret (the ConfigMap is not the place for it).
*/}}
{{- define "rowflow.properties" -}}
{{- $props := include "rowflow.chartProperties" . | fromYaml }}
{{- range $key, $value := .Values.config.extra }}
{{- if hasKey $props $key }}
{{- fail (printf "config.extra.%s is set by the chart from its values (see values.yaml); set it there, not in config.extra" $key) }}
{{- end }}
{{- if regexMatch "(password|secret|jaas\\.config|keystore\\.key)$" $key }}
{{- fail (printf "config.extra.%s looks like a secret, which must not go into the ConfigMap: set it with extraEnv as ROWFLOW_CONFIG_%s from a secretKeyRef" $key ($key | upper | replace "." "_")) }}
{{- end }}
{{- $_ := set $props $key $value }}
{{- end -}}

# Generated by the rowflow Helm chart from its values; edit the values, not this file.
# Secrets are not here: they reach rowflow as ROWFLOW_CONFIG_* environment variables.
{{- range $key := keys $props | sortAlpha }}
{{ $key }}={{ include "rowflow.propertiesValue" (index $props $key) }}
{{- end }}
{{- end }}

{{/*
Refuses combinations that cannot work, naming the values to change.
*/}}
{{- define "rowflow.validate" -}}
{{- if and .Values.config.orders.customerPlusPlus (eq .Values.config.orders.design "normalized") }}
{{- fail "config.orders.customerPlusPlus keeps a customer and its orders in one table, and config.orders.design=normalized needs three: choose record-types, denormalized or blob" }}
{{- end }}
{{- if and .Values.autoscaling.enabled (gt (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas)) }}
{{- fail (printf "autoscaling.minReplicas (%d) must not exceed autoscaling.maxReplicas (%d)" (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas)) }}
{{- end }}
{{- if and .Values.autoscaling.enabled (eq .Values.autoscaling.kind "hpa") (lt (int .Values.autoscaling.minReplicas) 1) }}
{{- fail "autoscaling.minReplicas must be at least 1 with autoscaling.kind hpa: a HorizontalPodAutoscaler does not scale from zero; kind keda with its kafka trigger does" }}
{{- end }}
{{- if and .Values.networkPolicy.enabled .Values.networkPolicy.egress.enabled (empty .Values.networkPolicy.egress.to) }}
{{- fail "networkPolicy.egress.to must list the peers rowflow needs (Kafka brokers, ZooKeeper, HBase masters and region servers, the KDC with Kerberos) when networkPolicy.egress.enabled is true" }}
{{- end }}
{{- end }}

{{/*
The topics the application's consumer group reads, each once, as a YAML list: the built-in
pipelines' (logs; customers and orders) and every declared input's. A topic.pattern input set
through config.extra is not among them: the kafka trigger then needs no topic (docs/scaling.md).
*/}}
{{- define "rowflow.groupTopics" -}}
{{- $v := .Values }}
{{- $topics := list }}
{{- if has "logs" $v.config.pipelines }}
{{- $topics = append $topics $v.config.topics.logs }}
{{- end }}
{{- if has "orders" $v.config.pipelines }}
{{- $topics = append $topics $v.config.topics.customers }}
{{- $topics = append $topics $v.config.topics.orders }}
{{- end }}
{{- range $v.config.inputs }}
{{- $topics = append $topics .topic }}
{{- end }}
{{- toYaml (uniq $topics) }}
{{- end }}

{{/*
How KEDA's kafka scaler reaches the brokers, from the values the pods use, as YAML:
  metadata:   trigger metadata (sasl, tls)
  parameters: the TriggerAuthentication's secretTargetRef and configMapTargetRef entries
  names:      the ConfigMap data the chart renders for parameters that are no secret (GSSAPI)
KEDA reads PEM files only, not the pods' PKCS12 stores: kafka.tls.caPemKey and friends name PEM
copies in the same Secret.
*/}}
{{- define "rowflow.kedaKafkaAuth" -}}
{{- $v := .Values }}
{{- $metadata := dict }}
{{- $secrets := list }}
{{- $configMaps := list }}
{{- $names := dict }}
{{- if $v.kafka.tls.enabled }}
{{- $_ := set $metadata "tls" "enable" }}
{{- $t := $v.kafka.tls }}
{{- if $t.caPemKey }}
{{- $secrets = append $secrets (dict "parameter" "ca" "name" $t.secretName "key" $t.caPemKey) }}
{{- end }}
{{- if or $t.certPemKey $t.keyPemKey }}
{{- if not (and $t.certPemKey $t.keyPemKey) }}
{{- fail "kafka.tls.certPemKey and kafka.tls.keyPemKey go together: KEDA's kafka scaler presents a client certificate only with its key" }}
{{- end }}
{{- $secrets = append $secrets (dict "parameter" "cert" "name" $t.secretName "key" $t.certPemKey) }}
{{- $secrets = append $secrets (dict "parameter" "key" "name" $t.secretName "key" $t.keyPemKey) }}
{{- else if $t.keystoreKey }}
{{- fail "kafka.tls.keystoreKey sets a client certificate, which KEDA's kafka scaler reads as PEM: set kafka.tls.certPemKey and kafka.tls.keyPemKey to PEM copies in the same Secret, or use autoscaling.keda.trigger prometheus" }}
{{- end }}
{{- end }}
{{- if $v.kafka.sasl.enabled }}
{{- $s := $v.kafka.sasl }}
{{- if eq $s.mechanism "GSSAPI" }}
{{- $_ := set $metadata "sasl" "gssapi" }}
{{- $principal := required "kafka.sasl.kerberos.principal is required with kafka.sasl.mechanism GSSAPI" $s.kerberos.principal }}
{{- if not (regexMatch "^[^@]+@[^@]+$" $principal) }}
{{- fail (printf "kafka.sasl.kerberos.principal %q needs its realm (name@REALM): KEDA's kafka scaler logs in with the two apart" $principal) }}
{{- end }}
{{- $parts := splitList "@" $principal }}
{{- $_ = set $names "username" (index $parts 0) }}
{{- $_ = set $names "realm" (index $parts 1) }}
{{- $_ = set $names "kerberosServiceName" $s.kerberos.serviceName }}
{{- range $p := list "username" "realm" "kerberosServiceName" }}
{{- $configMaps = append $configMaps (dict "parameter" $p "name" (include "rowflow.suffixedName" (list $ "keda-kafka")) "key" $p) }}
{{- end }}
{{- if $s.kerberos.secretName }}
{{- $secrets = append $secrets (dict "parameter" "keytab" "name" $s.kerberos.secretName "key" $s.kerberos.keytabKey) }}
{{- else }}
{{- $secrets = append $secrets (dict "parameter" "keytab" "name" $v.hbase.kerberos.secretName "key" $v.hbase.kerberos.keytabKey) }}
{{- end }}
{{- $krb5 := required "hbase.kerberos.krb5ConfigMap is required with kafka.sasl.mechanism GSSAPI and the kafka trigger: KEDA's kafka scaler reads the krb5.conf from it" $v.hbase.kerberos.krb5ConfigMap }}
{{- $configMaps = append $configMaps (dict "parameter" "kerberosConfig" "name" $krb5 "key" $v.hbase.kerberos.krb5ConfigKey) }}
{{- else }}
{{- $_ := set $metadata "sasl" (get (dict "PLAIN" "plaintext" "SCRAM-SHA-256" "scram_sha256" "SCRAM-SHA-512" "scram_sha512") $s.mechanism) }}
{{- $secret := required (printf "kafka.sasl.secretName is required with kafka.sasl.mechanism %s" $s.mechanism) $s.secretName }}
{{- $secrets = append $secrets (dict "parameter" "username" "name" $secret "key" $s.usernameKey) }}
{{- $secrets = append $secrets (dict "parameter" "password" "name" $secret "key" $s.passwordKey) }}
{{- end }}
{{- end }}
{{- toYaml (dict "metadata" $metadata "parameters" (dict "secretTargetRef" $secrets "configMapTargetRef" $configMaps) "names" $names) }}
{{- end }}
