/**
 * Guards a streamed text chunk by chunk without letting a value through across a chunk boundary: a card
 * number split as `4111 1111` + ` 1111 1111` is masked whole.
 *
 * Each chunk is appended to a pending buffer; everything up to the start of the trailing run that could
 * still grow into a detected value is guarded and released, the run is held back. What can still grow
 * depends on the guards that are on (`StreamHold`): with only number-shaped guards (card numbers, the
 * defaults) a trailing run of digit groups and a last token holding a digit; with token-shaped guards
 * (emails, keys, addresses, custom patterns) the last whitespace-free token; once the request has
 * placeholders, a placeholder half written (`[CAR`). Text that cannot grow into anything is released at
 * once; ordinary prose waits at most for the next chunk; a run of grouped digits is held until it ends. The hold is bounded: never more than
 * `maxHoldChars` characters (longer than any value a detector finds), so a stream of one unbroken token
 * still flows. The last few released characters are kept as left context so the detectors' look-behind
 * rules (`ORD-4111…` is an order id) see what came before.
 */
/** What a stream must hold back, from the guards that are on. */
export interface StreamHold {
  /** Number-shaped values (card numbers, phone numbers, IBANs, national ids): trailing digit groups. */
  readonly numeric: boolean;
  /** Token-shaped values (emails, credentials, IP addresses, custom patterns, deny-list terms): the last token. */
  readonly token: boolean;
  /** Whether the request has placeholders to restore (checked per chunk: the vault can grow). */
  readonly placeholders: () => boolean;
}

export class StreamMasker {
  readonly #guard: (text: string, from: number) => string;
  readonly #hold: StreamHold;
  #pending = '';
  #context = '';

  /**
   * @param guard guards and restores `text` from offset `from` on (the session's output guards); the text
   * before `from` is context only, already released.
   */
  constructor(guard: (text: string, from: number) => string, hold: StreamHold) {
    this.#guard = guard;
    this.#hold = hold;
  }

  /** Takes the next chunk; answers the guarded text that can be released now (possibly empty). */
  push(chunk: string): string {
    this.#pending += chunk;
    const cut = releasable(this.#pending, this.#hold);
    if (cut === 0) return '';
    return this.#release(cut);
  }

  /** The stream (or the content block) ended: releases whatever is held, guarded. */
  end(): string {
    if (this.#pending.length === 0) return '';
    return this.#release(this.#pending.length);
  }

  #release(cut: number): string {
    const segment = this.#pending.slice(0, cut);
    this.#pending = this.#pending.slice(cut);
    const context = this.#context;
    this.#context = (context + segment).slice(-contextChars);
    return this.#guard(context + segment, context.length);
  }
}

/** Characters of released text kept as look-behind context. */
const contextChars = 24;
/** The longest run held back: longer than a 19-digit grouped PAN, a 34-character IBAN or a provider key. */
export const maxHoldChars = 256;

const trailingToken = /\S*$/;
// Groups of digits and capitals (a grouped PAN, IBAN, phone number or national id), not lowercase prose.
const trailingGroups = /(?:[A-Z0-9()+]{1,6}[ .-])*[A-Z0-9()+]{0,6}$/;
const partialPlaceholder = /\[[A-Z0-9_]*$/;
const digit = /\d/;

/** How much of `pending` can be released: everything before the run that could still grow into a value. */
function releasable(pending: string, hold: StreamHold): number {
  // Only the last maxHoldChars (+1 for the boundary) can be held, so only they are searched.
  const offset = Math.max(0, pending.length - maxHoldChars - 1);
  const tail = pending.slice(offset);
  let start = tail.length;
  const token = trailingToken.exec(tail);
  if (token !== null && (hold.token || (hold.numeric && digit.test(token[0])))) start = Math.min(start, token.index);
  if (hold.numeric) {
    const groups = trailingGroups.exec(tail);
    if (groups !== null && digit.test(groups[0])) start = Math.min(start, groups.index);
  }
  if (hold.placeholders()) {
    const placeholder = partialPlaceholder.exec(tail);
    if (placeholder !== null) start = Math.min(start, placeholder.index);
  }
  if (start === tail.length) return pending.length;
  // The run starts at a token's beginning, so a value's look-behind context is held with it.
  while (start > 0 && !/\s/.test(tail.charAt(start - 1))) start -= 1;
  return Math.max(offset + start, pending.length - maxHoldChars);
}
