/**
 * What a store's synchronous `held` read answers when the value is not in process memory (or no
 * longer fresh there): the caller reads it the usual, asynchronous way instead.
 */
export const notHeld: unique symbol = Symbol('not held');
export type NotHeld = typeof notHeld;
