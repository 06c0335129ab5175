/**
 * Row key layouts: a {@link dev.rowflow.keying.layout.Salt} followed by
 * {@link dev.rowflow.keying.layout.KeyPart}s, each part written by a
 * {@link dev.rowflow.keying.layout.KeyEncoding}.
 *
 * <p>{@link dev.rowflow.keying.layout.RowKeyLayout} is the way in: parse a spec, encode and decode
 * keys, and ask for scan ranges and split points. Behind it, package-private, each concern has a
 * type of its own: {@code ScanRanges} plans reads, {@code SplitPoints} pre-splits tables,
 * {@code ExactDecoder} decodes only what encode can write, {@code LayoutSpec} parses specs.
 *
 * <p>Nothing outside this package branches on which salt or encoding it has: a salt variant says
 * itself how it is written, read, pinned, fanned out and split (as Phoenix's {@code SaltingUtil}
 * keeps salting in one place), and an encoding answers capability questions
 * ({@link dev.rowflow.keying.layout.KeyEncoding#recoverable()},
 * {@link dev.rowflow.keying.layout.KeyEncoding#needsUids()}, ...) as HBase's {@code DataType}
 * answers {@code isOrderPreserving()}.
 *
 * <p>The byte layouts specified in {@link dev.rowflow.keying.layout.KeyEncodings} and
 * {@link dev.rowflow.keying.layout.Salt} are on disk in every table rowflow wrote: changing one makes
 * those tables unreadable.
 */
package dev.rowflow.keying.layout;
