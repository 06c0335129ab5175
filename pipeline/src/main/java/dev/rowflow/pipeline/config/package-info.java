/**
 * The configuration, declared once: {@link dev.rowflow.pipeline.config.RowflowConfig} and, per
 * declared input, {@link dev.rowflow.pipeline.config.InputConfig}, each a Kafka {@code ConfigDef} with
 * docs, defaults and validators; the documentation's tables are generated from them ({@link
 * dev.rowflow.pipeline.config.ConfigDocs}) and held equal by tests.
 *
 * <p>Contract: configuration only configures. It validates keys and exposes typed values; it opens
 * no file or connection and builds no rows, formats or tables (the {@code PipelinePlan} does, once
 * per start). Every refusal is a {@code ConfigException} naming the key and the value (secrets
 * hidden).
 */
package dev.rowflow.pipeline.config;
