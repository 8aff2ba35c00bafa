import { type EliminationKeyInput, eliminationKeyOf, eliminationPrefixLength } from './elimination-key.js';
import { windowKeyFor } from './window-key.js';

/** Dimensions whose gateway keys are remembered before a cache starts over (at most 8,192 × 16 keys of ~100 characters: ~16 MiB a cache). */
const maxDimensions = 8_192;
/** Gateways remembered per dimension: callers name a handful; past this a key is built every time. */
const maxGatewaysPerDimension = 16;

/** One dimension's keys by gateway, and where in the dimension the gateway part goes. */
interface DimensionKeys {
  readonly place: number;
  readonly byGateway: Map<string, string>;
}

/** Window dimension → its keys: `<dimension>_<gateway>`. */
const windowKeys = new Map<string, DimensionKeys>();
/** Elimination dimension → its keys: the gateway inserted after the prefix. */
const eliminationKeys = new Map<string, DimensionKeys>();

/**
 * The SR window key of each gateway (`windowKeyFor`), in order.
 *
 * Remembered per dimension, so every decision of a dimension gets the same key strings: V8 keeps a
 * string's hash in it, and the score store's lookups then neither flatten nor hash a new ~70-character
 * key per candidate (bench/README.md, "Decision inputs and score keys kept"). A full cache starts
 * over; a miss only costs building the key.
 */
export function windowKeysOf(windowDimension: string, gateways: readonly string[]): string[] {
  return keysOf(windowKeys, windowDimension, windowDimension.length, gateways, (gateway) => windowKeyFor(windowDimension, gateway));
}

/**
 * The elimination key of each gateway (`eliminationKeyOf`), in order, remembered per dimension as
 * {@link windowKeysOf} does. The gateway sits inside the key after the merchant and order type, and
 * those may hold `_`: two payments' dimensions can read alike with the gateway's place elsewhere, so
 * a remembered dimension serves only a payment whose prefix has its length.
 */
export function eliminationKeysOf(
  merchantId: string,
  payment: Omit<EliminationKeyInput, 'merchantId'>,
  eliminationDimension: string,
  gateways: readonly string[],
): string[] {
  const place = eliminationPrefixLength(merchantId, payment.orderType);
  return keysOf(eliminationKeys, eliminationDimension, place, gateways, (gateway) => eliminationKeyOf({ merchantId, ...payment }, gateway));
}

/** Each gateway's key from `cache`, built by `build` (and remembered) when missing there. */
function keysOf(
  cache: Map<string, DimensionKeys>,
  dimension: string,
  place: number,
  gateways: readonly string[],
  build: (gateway: string) => string,
): string[] {
  let keys = cache.get(dimension);
  if (keys === undefined) {
    if (cache.size >= maxDimensions) cache.clear();
    keys = { place, byGateway: new Map() };
    cache.set(dimension, keys);
  }
  // A remembered dimension whose gateway part goes elsewhere is another payment's: built, not served.
  const served = keys.place === place;
  // Made at its length: an array grown by push gets room for 17 at its first push.
  const out: string[] = new Array(gateways.length);
  for (let index = 0; index < gateways.length; index += 1) {
    const gateway = gateways[index] as string;
    let key = served ? keys.byGateway.get(gateway) : undefined;
    if (key === undefined) {
      key = build(gateway);
      if (served && keys.byGateway.size < maxGatewaysPerDimension) keys.byGateway.set(gateway, key);
    }
    out[index] = key;
  }
  return out;
}
