/**
 * The read side: rows read back the way their keys were designed (seeds 001-003) -- a host's
 * events newest first through the index, a time range fanned out over salt buckets and merged
 * back in key order, index lookups that check the data row exists, everything about a customer in
 * one scan, an order with its line items.
 */
package dev.rowflow.sinks.query;
