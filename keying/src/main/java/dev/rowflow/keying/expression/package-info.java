/**
 * The mapping language: what may stand where a declared input names a value (a key part, a
 * column, the time) and what a condition ({@code where}) may say, as
 * {@link dev.rowflow.keying.expression.Expression}s parsed and type-checked once, at start, and
 * evaluated per record against its {@link dev.rowflow.keying.mapping.RecordTree} value and
 * {@link dev.rowflow.keying.mapping.RecordSource}.
 *
 * <p>{@link dev.rowflow.keying.expression.Expression} is the way in. Behind it, package-private,
 * each concern has a type of its own: {@code Parser} reads the grammar through {@code Scanner} and
 * checks what it can at start; the nodes it makes ({@code Nodes}' values, {@code Conditions}) evaluate
 * a record; {@code Functions} is the one list of functions, from which
 * {@link dev.rowflow.keying.expression.FunctionReference} renders their reference.
 *
 * <p>Contracts: parsing refuses a mistake with an {@link IllegalArgumentException} naming the
 * expression and what is wrong at which offset; evaluating refuses a value of the wrong kind with
 * an {@code InvalidEventException} whose message is the dead-letter reason. Nothing is converted
 * silently. Field paths themselves ({@link dev.rowflow.keying.mapping.FieldPath}) and the record
 * tree stay in {@code dev.rowflow.keying.mapping}, which compiles mappings from expressions.
 */
package dev.rowflow.keying.expression;
