/**
 * The {@code rowflow} command line (picocli): {@code run}, {@code tables}, {@code index},
 * {@code query}, {@code keys}, {@code config}. Conventions ({@link dev.rowflow.pipeline.cli.ErrorMessages}):
 * exit 0 yes, 1 the answer is no or the work failed, 2 refused before doing anything; a refusal is
 * one line naming the value and why, a stack trace only with {@code --verbose}. Commands that work
 * on tables build the same plan {@code run} builds, so they refuse what it refuses.
 */
package dev.rowflow.pipeline.cli;
