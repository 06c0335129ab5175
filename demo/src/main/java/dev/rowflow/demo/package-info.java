/**
 * {@code rowflow demo} and {@code rowflow bench}: the production CLI plus commands that start the
 * embedded stack (a KRaft broker and an HBase mini cluster in-process), generate load and measure.
 * Never deployed: the production jar and image hold the pipeline module only.
 */
package dev.rowflow.demo;
