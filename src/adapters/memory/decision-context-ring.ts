import type { PaymentDimensions } from '../../generated/schema-types.js';
import type { DecisionContext } from '../../ports/state/score-store.js';

/**
 * What many decisions share: everything in a decision context but the payment, its time, its event,
 * its amount and its customer. Built once per distinct combination and held by reference from every
 * slot that has it, so its strings (the two dimensions are ~60 characters each, and built anew by
 * every decision) are held once, not once per decision.
 */
interface ContextShape {
  readonly windowDimension: string | null;
  readonly eliminationDimension: string;
  readonly eliminationEnabled: boolean;
  readonly routingApproach: string;
  readonly orderType: string;
  /** The payment's dimensions without its amount (the slot holds that). */
  readonly payment: Omit<PaymentDimensions, 'amount'>;
}

/** Distinct shapes remembered before the memo starts over (slots keep theirs: a miss only builds one more). */
const maxRememberedShapes = 4096;
/** Shapes a merchant keeps at hand (compared field by field before the text index is consulted). */
const recentShapesPerMerchant = 8;
/** Slots allocated at first; the arrays double up to the ring's capacity. */
const initialSlots = 1024;

/**
 * The embedded store's decision contexts (what feedback needs to find a decision's windows): at most
 * `capacity` of them, in a ring whose oldest slot the next one overwrites, each kept until the expiry
 * it was written with.
 *
 * Why not one JSON text per context in a Map, as before: at the default 500,000 contexts that held
 * 325 MB of text (~650 bytes each, field names, the merchant and both dimensions repeated in every
 * one), plus a key and an entry object with a boxed expiry per context, and dropping the oldest walked
 * an iterator of the Map every decision (bench/README.md, "Decision contexts in a ring"). Here a
 * context is its slot in parallel arrays (times and amounts unboxed in typed arrays), the payment id
 * and event id it already had, and a reference to a shared {@link ContextShape}; the oldest is
 * found by index. Contexts are read back only when feedback arrives.
 *
 * A payment decided again gets a new slot; its old slot stays until overwritten or swept, and then
 * drops the payment's entry only if the entry still points at it.
 */
export class DecisionContextRing {
  readonly #capacity: number;
  readonly #merchants = new Map<string, MerchantContexts>();
  readonly #shapes = new Map<string, ContextShape>();
  // One array per field, one index per slot; a cleared slot holds undefined.
  readonly #merchantOf: (MerchantContexts | undefined)[] = [];
  readonly #paymentIds: (string | undefined)[] = [];
  readonly #eventIds: (string | undefined)[] = [];
  readonly #shapeOf: (ContextShape | undefined)[] = [];
  readonly #customerKeys: (string | undefined)[] = [];
  readonly #combos: (string | undefined)[] = [];
  #decidedAt = new Float64Array(initialSlots);
  #amounts = new Float64Array(initialSlots);
  #expiresAt = new Float64Array(initialSlots);
  /** The slot the next context is written to. */
  #next = 0;
  /** Slots holding a context (the latest of its payment or a replaced one): the oldest is `#held` before `#next`, around the ring. */
  #held = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a decision-context ring holds a whole number ≥ 1 of contexts; got ${capacity}`);
    this.#capacity = capacity;
  }

  /** Writes a context, expiring at `expiresAtMs`; at the capacity it overwrites the oldest. */
  put(context: DecisionContext, expiresAtMs: number): void {
    if (this.#held === this.#capacity) this.#clear(this.#next);
    else this.#held += 1;
    const slot = this.#next;
    if (slot === this.#decidedAt.length) this.#grow();
    let merchant = this.#merchants.get(context.merchantId);
    if (merchant === undefined) {
      merchant = { merchantId: context.merchantId, slots: new Map(), recentShapes: [], nextRecent: 0 };
      this.#merchants.set(context.merchantId, merchant);
    }
    merchant.slots.set(context.paymentId, slot);
    this.#merchantOf[slot] = merchant;
    this.#paymentIds[slot] = context.paymentId;
    this.#eventIds[slot] = context.decisionEventId;
    this.#shapeOf[slot] = this.#sharedShape(context, merchant);
    this.#customerKeys[slot] = context.sticky?.customerKey;
    this.#combos[slot] = context.sticky?.combo;
    this.#decidedAt[slot] = context.decidedAt;
    this.#amounts[slot] = context.payment.amount;
    this.#expiresAt[slot] = expiresAtMs;
    this.#next = slot + 1 === this.#capacity ? 0 : slot + 1;
  }

  /** The payment's latest context, unless it expired by `nowMs` or was overwritten. */
  get(merchantId: string, paymentId: string, nowMs: number): DecisionContext | undefined {
    const slot = this.#merchants.get(merchantId)?.slots.get(paymentId);
    if (slot === undefined || (this.#expiresAt[slot] as number) <= nowMs) return undefined;
    const shape = this.#shapeOf[slot] as ContextShape;
    const context: { -readonly [K in keyof DecisionContext]: DecisionContext[K] } = {
      merchantId,
      paymentId,
      decidedAt: this.#decidedAt[slot] as number,
      decisionEventId: this.#eventIds[slot] as string,
      windowDimension: shape.windowDimension,
      eliminationDimension: shape.eliminationDimension,
      eliminationEnabled: shape.eliminationEnabled,
      routingApproach: shape.routingApproach,
      orderType: shape.orderType,
      payment: { ...shape.payment, amount: this.#amounts[slot] as number },
    };
    const customerKey = this.#customerKeys[slot];
    if (customerKey !== undefined) context.sticky = { customerKey, combo: this.#combos[slot] as string };
    return context;
  }

  /** Clears the oldest contexts that expired by `nowMs` (one TTL serves them all, so they expire oldest first). */
  sweep(nowMs: number): void {
    while (this.#held > 0) {
      const oldest = (this.#next - this.#held + this.#capacity) % this.#capacity;
      if ((this.#expiresAt[oldest] as number) > nowMs) return;
      this.#clear(oldest);
      this.#held -= 1;
    }
  }

  /** Empties a slot, and drops its payment's entry when the entry is this slot (not a later decision's). */
  #clear(slot: number): void {
    const merchant = this.#merchantOf[slot];
    if (merchant === undefined) return;
    const paymentId = this.#paymentIds[slot] as string;
    if (merchant.slots.get(paymentId) === slot) {
      merchant.slots.delete(paymentId);
      if (merchant.slots.size === 0) this.#merchants.delete(merchant.merchantId);
    }
    this.#merchantOf[slot] = undefined;
    this.#paymentIds[slot] = undefined;
    this.#eventIds[slot] = undefined;
    this.#shapeOf[slot] = undefined;
    this.#customerKeys[slot] = undefined;
    this.#combos[slot] = undefined;
  }

  /** Doubles the typed arrays (up to the capacity): slots are written in order, so only the next one can be past their end. */
  #grow(): void {
    const length = Math.min(this.#capacity, this.#decidedAt.length * 2);
    this.#decidedAt = grown(this.#decidedAt, length);
    this.#amounts = grown(this.#amounts, length);
    this.#expiresAt = grown(this.#expiresAt, length);
  }

  /**
   * The context's shared shape: one of the merchant's recent shapes whose every field is the
   * context's, else the one found by a text of its fields, each led by its length (so no value can
   * pass for two), else built and remembered. A merchant's payments come in a few combinations (the
   * bench's mix: three cards), and comparing a few fields, most of them the same short strings V8's
   * JSON parser interned, costs far less than building and hashing the ~250-character text.
   */
  #sharedShape(context: DecisionContext, merchant: MerchantContexts): ContextShape {
    const recent = merchant.recentShapes;
    for (let index = 0; index < recent.length; index += 1) {
      const shape = recent[index] as ContextShape;
      if (sameShape(shape, context)) return shape;
    }
    const payment = context.payment;
    const text =
      `${part(context.windowDimension)}${part(context.eliminationDimension)}${context.eliminationEnabled ? 't' : 'f'}${part(context.routingApproach)}` +
      `${part(context.orderType)}${part(payment.orderType)}${part(payment.paymentMethodType)}${part(payment.paymentMethod)}${part(payment.cardType)}` +
      `${part(payment.cardNetwork)}${part(payment.cardIsIn)}${part(payment.currency)}${part(payment.country)}${part(payment.authType)}`;
    let shape = this.#shapes.get(text);
    if (shape === undefined) {
      if (this.#shapes.size >= maxRememberedShapes) this.#shapes.clear();
      const { amount: _amount, ...dimensions } = payment;
      shape = {
        windowDimension: context.windowDimension,
        eliminationDimension: context.eliminationDimension,
        eliminationEnabled: context.eliminationEnabled,
        routingApproach: context.routingApproach,
        orderType: context.orderType,
        payment: dimensions,
      };
      this.#shapes.set(text, shape);
    }
    // The merchant's recent list takes it in turn, replacing its oldest once full.
    recent[merchant.nextRecent] = shape;
    merchant.nextRecent = (merchant.nextRecent + 1) % recentShapesPerMerchant;
    return shape;
  }
}

/** Whether `context` has every field of `shape` (the payment's most varied dimensions first, the long dimension texts last). */
function sameShape(shape: ContextShape, context: DecisionContext): boolean {
  const held = shape.payment;
  const payment = context.payment;
  return (
    held.cardNetwork === payment.cardNetwork &&
    held.cardIsIn === payment.cardIsIn &&
    held.currency === payment.currency &&
    held.country === payment.country &&
    held.authType === payment.authType &&
    held.cardType === payment.cardType &&
    held.paymentMethod === payment.paymentMethod &&
    held.paymentMethodType === payment.paymentMethodType &&
    held.orderType === payment.orderType &&
    shape.routingApproach === context.routingApproach &&
    shape.eliminationEnabled === context.eliminationEnabled &&
    shape.orderType === context.orderType &&
    shape.eliminationDimension === context.eliminationDimension &&
    shape.windowDimension === context.windowDimension
  );
}

/** One merchant's payments, by id, and the slot of each one's latest context. */
interface MerchantContexts {
  readonly merchantId: string;
  readonly slots: Map<string, number>;
  /** Shapes this merchant's contexts had lately, at most {@link recentShapesPerMerchant}; tried before the shared text index. */
  readonly recentShapes: ContextShape[];
  /** Where the next shape not among them goes (round the list). */
  nextRecent: number;
}

function grown(array: Float64Array<ArrayBuffer>, length: number): Float64Array<ArrayBuffer> {
  const copy = new Float64Array(length);
  copy.set(array);
  return copy;
}

/** A field of a shape's text: its length, then the value (`-` for null, `~` for absent). */
function part(value: string | null | undefined): string {
  return value === null ? '-' : value === undefined ? '~' : `${value.length}:${value}`;
}
