import { type Detection, withoutOverlaps } from './detection.js';
import type { GuardPolicy } from './guard-policy.js';
import { defaultInjectionThreshold, type GuardAction } from './guard-settings.js';
import { injectionScore } from './injection-score.js';
import { MaskVault } from './mask-vault.js';
import { StreamMasker } from './stream-masker.js';

/** Where in a call a guard ran: on what goes to the model, on its whole answer, or on its streamed answer. */
export type GuardStage = 'input' | 'output' | 'output-stream';

/** Who wrote a piece of input: injection heuristics run on `user` text and, separately, on `tool` results. */
export type InputSource = 'user' | 'system' | 'assistant' | 'tool';

/** One guard's outcome in one stage of one call: how many findings and what was done. Never the text. */
export interface GuardOutcome {
  readonly guard: string;
  readonly stage: GuardStage;
  readonly action: GuardAction;
  readonly count: number;
  /** Injection guards: the highest score seen. */
  readonly score?: number;
}

/** A user or tool text kept for the asynchronous checks: as guarded, with the injection heuristics' score and threshold. */
export interface CheckedInput {
  readonly text: string;
  readonly source: 'user' | 'tool';
  readonly heuristicScore: number;
  readonly heuristicThreshold: number;
}

const noCheckedInputs: readonly CheckedInput[] = Object.freeze([]);

/** The guard that refused a call, and in which stage. */
export interface GuardBlock {
  readonly guard: string;
  readonly stage: GuardStage;
}

/**
 * One call's guards: the compiled policy, the per-request vault (never stored or logged), and the tally
 * of what every guard did. Front doors feed it each text the model will see (`input`) and each text it
 * answers (`output`, or a `stream()` masker), then read `blocked` (refuse before any provider call) and
 * `outcomes` (the `guard.applied` evidence).
 *
 * A blocking finding does not throw: the session records it and keeps going, so one walk over a request
 * both masks and decides; the caller checks `blocked` once the walk is done.
 */
export class GuardSession {
  readonly policy: GuardPolicy;
  readonly #vault = new MaskVault();
  readonly #tally = new Map<string, { guard: string; stage: GuardStage; action: GuardAction; count: number; score?: number }>();
  #blocked: GuardBlock | undefined;
  #inputBytes = 0;
  /** Made on the first text an asynchronous check reads: a session without such checks allocates nothing for them. */
  #checked: CheckedInput[] | undefined;

  constructor(policy: GuardPolicy) {
    this.policy = policy;
  }

  get blocked(): GuardBlock | undefined {
    return this.#blocked;
  }

  get outcomes(): readonly GuardOutcome[] {
    return [...this.#tally.values()];
  }

  /** Whether any reversible placeholder was handed to the model (an answer then needs restoring). */
  get masked(): boolean {
    return this.#vault.size > 0;
  }

  /** One text the model will see, guarded: masked values replaced by reversible placeholders. */
  input(text: string, source: InputSource): string {
    this.#inputBytes += byteLength(text);
    const injection = source === 'user' ? this.policy.injection : source === 'tool' ? this.policy.indirectInjection : undefined;
    let score: number | undefined;
    if (injection !== undefined && text.length > 0) {
      score = injectionScore(text, source === 'tool');
      if (score >= injection.threshold) {
        const guard = source === 'user' ? 'prompt-injection' : 'indirect-injection';
        const action = injection.action === 'mask' ? 'log' : injection.action;
        this.#count(guard, 'input', action, 1, score);
        if (action === 'block') this.#block(guard, 'input');
      }
    }
    const guarded = this.#apply(text, 'input', this.policy.restore);
    if (this.policy.checksAsync && (source === 'user' || source === 'tool') && text.trim() !== '') this.#collect(guarded, source, text, score);
    return guarded;
  }

  /**
   * The user and tool texts the asynchronous checks (moderation, judge) read, as the model will see them
   * (masked: a card number never goes to a moderation or judge provider either). Empty unless the policy has them.
   */
  get checkedInputs(): readonly CheckedInput[] {
    return this.#checked ?? noCheckedInputs;
  }

  /**
   * An asynchronous check's finding in the input stage (moderation, the injection judge, or their failure
   * under a fail-open or fail-closed setting): counted as evidence, and a `block` refuses the call.
   */
  recordCheck(guard: string, action: 'log' | 'block', count: number, score?: number): void {
    this.#count(guard, 'input', action, count, score);
    if (action === 'block') this.#block(guard, 'input');
  }

  #collect(guarded: string, source: 'user' | 'tool', text: string, score: number | undefined): void {
    // The judge's "inconclusive" test needs the heuristics' score even where no injection guard is on.
    const heuristic = this.policy.judge === undefined ? 0 : (score ?? injectionScore(text, source === 'tool'));
    const threshold = (source === 'user' ? this.policy.injection : this.policy.indirectInjection)?.threshold ?? defaultInjectionThreshold;
    this.#checked ??= [];
    this.#checked.push({ text: guarded, source, heuristicScore: heuristic, heuristicThreshold: threshold });
  }

  /**
   * Checks the size of everything passed to `input` so far against the max-input-size guard; call once
   * the whole request has been walked.
   */
  finishInput(): void {
    const limit = this.policy.maxInputBytes;
    if (limit === undefined || this.#inputBytes <= limit.maxBytes) return;
    this.#count('max-input-size', 'input', limit.action, 1);
    if (limit.action === 'block') this.#block('max-input-size', 'input');
  }

  /** One text of the model's answer (answer text, tool-call arguments): guarded, then restored for the caller. */
  output(text: string): string {
    const guarded = this.#apply(text, 'output', false);
    return this.#vault.restore(guarded);
  }

  /** A masker for one streamed text (one content block): guarded and restored chunk by chunk. */
  stream(): StreamMasker {
    return new StreamMasker((text, from) => this.#vault.restore(this.#apply(text, 'output-stream', false, from)), {
      numeric: this.policy.holdsNumbers,
      token: this.policy.holdsTokens,
      placeholders: () => this.#vault.size > 0,
    });
  }

  /** Restores placeholders only (text the output guards already saw). */
  restore(text: string): string {
    return this.#vault.restore(text);
  }

  /** Guards `text` from offset `from` on (what comes before is look-behind context, answered without it). */
  #apply(text: string, stage: GuardStage, reversible: boolean, from = 0): string {
    if (text.length === from || this.policy.detectors.length === 0) return text.slice(from);
    let detections: Detection[] = [];
    const actions = new Map<string, { action: GuardAction; label: string }>();
    for (const detector of this.policy.detectors) {
      const detected = detector.detect(text);
      const found = from === 0 ? detected : detected.filter((detection) => detection.start >= from);
      if (found.length === 0) continue;
      this.#count(detector.guard, stage, detector.action, found.length);
      if (detector.action === 'block') this.#block(detector.guard, stage);
      if (detector.action === 'log') continue;
      actions.set(detector.guard, { action: detector.action, label: detector.label });
      detections = detections.concat(found);
    }
    if (detections.length === 0) return text.slice(from);
    let result = '';
    let cursor = from;
    for (const detection of withoutOverlaps(detections)) {
      const label = actions.get(detection.kind)?.label ?? 'REDACTED';
      result += text.slice(cursor, detection.start) + this.#vault.placeholderFor(label, text.slice(detection.start, detection.end), reversible);
      cursor = detection.end;
    }
    return result + text.slice(cursor);
  }

  #count(guard: string, stage: GuardStage, action: GuardAction, count: number, score?: number): void {
    const key = `${guard}\u0000${stage}`;
    const current = this.#tally.get(key);
    if (current === undefined) {
      this.#tally.set(key, { guard, stage, action, count, ...(score !== undefined ? { score } : {}) });
      return;
    }
    current.count += count;
    if (score !== undefined) current.score = Math.max(current.score ?? 0, score);
  }

  #block(guard: string, stage: GuardStage): void {
    this.#blocked ??= { guard, stage };
  }
}

function byteLength(text: string): number {
  // UTF-8 length without allocating: ASCII is one byte, the BMP up to three, a surrogate pair four.
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index += 1;
    } else {
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    }
  }
  return bytes;
}
