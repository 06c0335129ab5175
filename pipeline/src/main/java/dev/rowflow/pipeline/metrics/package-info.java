/**
 * The HTTP endpoints a pod is watched through: {@code /metrics} (Micrometer's Prometheus registry),
 * {@code /healthz} and {@code /readyz}.
 */
package dev.rowflow.pipeline.metrics;
