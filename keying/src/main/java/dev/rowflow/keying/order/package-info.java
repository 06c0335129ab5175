/**
 * The customer/order designs of seed 002, 1.11.3: {@link dev.rowflow.keying.order.OrderRows} makes
 * the rows of a customer and of an order in the configured {@link dev.rowflow.keying.order.OrderDesign}
 * (normalized tables, one table with record types, denormalized line items, the Avro blob), with
 * CUSTOMER++ keeping a customer and its orders under one prefix. Keys are {@code [customer][order]}
 * in the configured encodings; qualifiers on disk are in {@link dev.rowflow.keying.order.OrderColumns}.
 */
package dev.rowflow.keying.order;
