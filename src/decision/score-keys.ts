import { type EliminationKeyInput, eliminationKeyOf, eliminationPrefixLength } from './elimination-key.js';
import { windowKeyFor } from './window-key.js';

/** Dimensions whose gateway keys are remembered before a cache starts over (at most 8,192 × 16 keys of ~100 characters: ~16 MiB a cache). */
const maxDimensions = 8_192;
/** Gateways remembered per dimension: callers name a handful; past this a key is built every time. */
const maxGatewaysPerDimension = 16;

/** One dimension's keys by gateway, and where its gateway part goes (elimination keys only). */
interface DimensionKeys {
  readonly prefixLength: number;
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
  const keys = dimensionKeys(windowKeys, windowDimension, 0);
  const out: string[] = [];
  for (const gateway of gateways) {
    let key = keys.byGateway.get(gateway);
    if (key === undefined) {
      key = windowKeyFor(windowDimension, gateway);
      remember(keys, gateway, key);
    }
    out.push(key);
  }
  return out;
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
  const prefixLength = eliminationPrefixLength(merchantId, payment.orderType);
  const keys = dimensionKeys(eliminationKeys, eliminationDimension, prefixLength);
  const out: string[] = [];
  for (const gateway of gateways) {
    let key = keys.prefixLength === prefixLength ? keys.byGateway.get(gateway) : undefined;
    if (key === undefined) {
      key = eliminationKeyOf({ merchantId, ...payment }, gateway);
      if (keys.prefixLength === prefixLength) remember(keys, gateway, key);
    }
    out.push(key);
  }
  return out;
}

function dimensionKeys(cache: Map<string, DimensionKeys>, dimension: string, prefixLength: number): DimensionKeys {
  let keys = cache.get(dimension);
  if (keys === undefined) {
    if (cache.size >= maxDimensions) cache.clear();
    keys = { prefixLength, byGateway: new Map() };
    cache.set(dimension, keys);
  }
  return keys;
}

function remember(keys: DimensionKeys, gateway: string, key: string): void {
  if (keys.byGateway.size < maxGatewaysPerDimension) keys.byGateway.set(gateway, key);
}
