/**
 * Re-keying a table: a copy of its rows under another key layout ({@link dev.rowflow.sinks.rekey.RekeyCopy}),
 * resumable from its checkpoints ({@link dev.rowflow.sinks.rekey.RekeyCheckpoints}), and its verification
 * per key range ({@link dev.rowflow.sinks.rekey.RekeyVerification}). The keys are translated by
 * {@link dev.rowflow.keying.mapping.KeyTranslation}, the one rule of how a row of one layout is keyed with another.
 */
package dev.rowflow.sinks.rekey;
