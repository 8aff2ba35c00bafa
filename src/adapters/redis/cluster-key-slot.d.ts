/** cluster-key-slot (ioredis' own key → slot function) ships no types. */
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot (0-16383) of a key, honouring its `{hash tag}`. */
  function calculateSlot(key: string | Buffer): number;
  export default calculateSlot;
  /** The one slot every key maps to, or -1 when they span slots. */
  export function generateMulti(keys: readonly (string | Buffer)[]): number;
}
