/**
 * The per-request vault of reversible masking: which placeholder stands for which original value. It lives
 * only as long as one call, in memory, and is never stored, logged or put into an event: the model sees
 * `[CARD_1]`, and only the caller's answer gets the original back.
 *
 * The same value masked twice in one request gets the same placeholder, so the model can still tell two
 * different cards apart and refer to one consistently. Values masked on the way out (a card number the
 * model itself wrote) get a placeholder too, but are not reversible: restoring never brings them back.
 */
export class MaskVault {
  readonly #originals = new Map<string, string>();
  readonly #byValue = new Map<string, string>();
  readonly #counters = new Map<string, number>();

  /** The placeholder for `value` under `label` (`CARD` → `[CARD_1]`), reusing the one this value already has. */
  placeholderFor(label: string, value: string, reversible: boolean): string {
    const key = `${label}\u0000${value}`;
    const known = this.#byValue.get(key);
    if (known !== undefined && (!reversible || this.#originals.has(known))) return known;
    const next = (this.#counters.get(label) ?? 0) + 1;
    this.#counters.set(label, next);
    const placeholder = `[${label}_${next}]`;
    this.#byValue.set(key, placeholder);
    if (reversible) this.#originals.set(placeholder, value);
    return placeholder;
  }

  /** How many reversible placeholders the vault holds. */
  get size(): number {
    return this.#originals.size;
  }

  /** The text with every reversible placeholder of this vault replaced by its original; others left as written. */
  restore(text: string): string {
    if (this.#originals.size === 0 || text.indexOf('[') < 0) return text;
    return text.replace(placeholderPattern, (placeholder) => this.#originals.get(placeholder) ?? placeholder);
  }
}

/** Any placeholder the vault can make: an uppercase label, `_`, a counter, in brackets. */
export const placeholderPattern = /\[[A-Z][A-Z0-9_]*_\d+\]/g;
