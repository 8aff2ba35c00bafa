/**
 * Where an uploaded settlement report waits between the request that brought it and the
 * background pass that parses it: on the local disk in embedded mode. The request streams its body
 * in; nothing holds the whole file in memory.
 */
export interface ReportSpool {
  /**
   * Writes `source` to a new spool file while hashing it, and stops reading as soon as more than
   * `maxBytes` arrived (the partial file is removed). The source is consumed to its end otherwise.
   */
  write(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<SpoolWrite>;
  /** The spooled bytes, streamed in chunks; can be read any number of times until removed. */
  read(handle: string): AsyncIterable<Uint8Array>;
  /** Removes a spooled file; a missing one is not an error. */
  remove(handle: string): Promise<void>;
}

export type SpoolWrite =
  | { readonly kind: 'written'; readonly handle: string; readonly sha256: string; readonly bytes: number }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'empty' };
