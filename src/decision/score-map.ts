/**
 * The prototype of every score map: an object with no properties whose own prototype is null. A
 * map built on it is safe for any gateway name, as a null-prototype map is: `__proto__`,
 * `constructor` or `toString` become own data properties, and reading an absent name finds nothing.
 * Unlike `Object.create(null)`, which V8 keeps in dictionary mode, a map on this prototype is a
 * fast-mode object: reads by name take the inline caches, `Object.keys` and `for…in` use the map's
 * cached key list, and the event and the answer can share the decision's map instead of copying it.
 */
const scoreMapPrototype: object = Object.freeze(Object.create(null));

/** A gateway → score map in candidate order, the decision's `gatewayPriorityMap`. */
export function scoreMapOf(gateways: readonly string[], scores: readonly number[]): Readonly<Record<string, number>> {
  const map = Object.create(scoreMapPrototype) as Record<string, number>;
  for (let index = 0; index < gateways.length; index += 1) {
    map[gateways[index] as string] = scores[index] as number;
  }
  return map;
}
