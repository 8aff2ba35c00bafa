/** Immutable list edits for the builder's nested drafts. */
export const replaceAt = <T>(list: readonly T[], index: number, value: T): T[] => list.map((item, position) => (position === index ? value : item));
export const removeAt = <T>(list: readonly T[], index: number): T[] => list.filter((_item, position) => position !== index);
