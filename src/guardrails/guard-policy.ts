import { detectCardNumbers } from './card-number.js';
import { detectCredentials } from './credential-detector.js';
import { type Detection, type DetectorKind, detectorKinds, placeholderLabels } from './detection.js';
import { defaultInjectionThreshold, type GuardAction, type GuardSettings } from './guard-settings.js';
import { detectEmails, detectIbans, detectIpAddresses, detectNationalIds, detectPhones } from './pii-detectors.js';
import { checkPattern } from './safe-pattern.js';

/** One detector guard ready to run: what it is called, its placeholder label, its action and its detector. */
export interface CompiledDetector {
  readonly guard: string;
  readonly label: string;
  readonly action: GuardAction;
  readonly detect: (text: string) => Detection[];
}

export interface CompiledInjectionGuard {
  readonly action: GuardAction;
  readonly threshold: number;
}

const builtInDetectors: Readonly<Record<DetectorKind, (text: string) => Detection[]>> = {
  card: detectCardNumbers,
  email: detectEmails,
  phone: detectPhones,
  iban: detectIbans,
  'national-id': detectNationalIds,
  ip: detectIpAddresses,
  credential: detectCredentials,
};

/** The moderation guard, compiled: which provider model, which categories count and from what score, what a failed check does. */
export interface CompiledModeration {
  readonly action: 'log' | 'block';
  readonly model: string;
  readonly categories: readonly string[] | undefined;
  readonly threshold: number | undefined;
  readonly failClosed: boolean;
}

/** The judge-model injection guard, compiled. */
export interface CompiledJudge {
  readonly action: 'log' | 'block';
  /** `provider/model`. */
  readonly model: string;
  readonly threshold: number;
  readonly always: boolean;
  readonly failClosed: boolean;
}

export const defaultModerationModel = 'omni-moderation-latest';

export type CompiledPolicy = { readonly ok: true; readonly policy: GuardPolicy } | { readonly ok: false; readonly reason: string };

/**
 * Guard settings compiled once (regexes built, custom patterns admitted) so that each request only runs
 * them. Detectors run in a fixed order (built-in kinds, the deny-list, then custom patterns); where two
 * find overlapping text the earlier-starting, longer one wins.
 */
export class GuardPolicy {
  readonly detectors: readonly CompiledDetector[];
  readonly injection: CompiledInjectionGuard | undefined;
  readonly indirectInjection: CompiledInjectionGuard | undefined;
  readonly maxInputBytes: { readonly action: GuardAction; readonly maxBytes: number } | undefined;
  readonly restore: boolean;
  readonly moderation: CompiledModeration | undefined;
  readonly judge: CompiledJudge | undefined;
  /**
   * Whether a call needs the asynchronous checks (moderation, judge) after its input walk. False for every
   * policy without them (the defaults), so those calls keep the synchronous path: no texts collected, no await.
   */
  readonly checksAsync: boolean;
  /** Whether a stream must hold back trailing digit groups (a number-shaped guard is on). */
  readonly holdsNumbers: boolean;
  /** Whether a stream must hold back its last token (a token-shaped guard is on). */
  readonly holdsTokens: boolean;

  private constructor(parts: Pick<GuardPolicy, 'detectors' | 'injection' | 'indirectInjection' | 'maxInputBytes' | 'restore' | 'moderation' | 'judge'>) {
    this.detectors = parts.detectors;
    this.injection = parts.injection;
    this.indirectInjection = parts.indirectInjection;
    this.maxInputBytes = parts.maxInputBytes;
    this.restore = parts.restore;
    this.moderation = parts.moderation;
    this.judge = parts.judge;
    this.checksAsync = parts.moderation !== undefined || parts.judge !== undefined;
    const numberShaped = new Set(['card', 'phone', 'iban', 'national-id']);
    this.holdsNumbers = parts.detectors.some((detector) => numberShaped.has(detector.guard));
    this.holdsTokens = parts.detectors.some((detector) => !numberShaped.has(detector.guard));
  }

  /** Compiles settings; refuses a custom pattern that fails the backtracking check or an empty deny-list term. */
  static compile(settings: GuardSettings): CompiledPolicy {
    const detectors: CompiledDetector[] = [];
    for (const kind of detectorKinds) {
      const setting = settings[kind];
      if (setting !== undefined) detectors.push({ guard: kind, label: placeholderLabels[kind], action: setting.action, detect: builtInDetectors[kind] });
    }
    const denyList = settings['deny-list'];
    if (denyList !== undefined && denyList.terms.length > 0) {
      if (denyList.terms.some((term) => term.trim() === '')) return { ok: false, reason: 'deny-list terms must not be empty' };
      const escaped = denyList.terms.map((term) =>
        term
          .trim()
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\s+/g, '\\s+'),
      );
      const regex = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${escaped.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
      detectors.push({ guard: 'deny-list', label: 'DENIED', action: denyList.action, detect: (text) => collect(regex, text, 'deny-list') });
    }
    for (const custom of settings.patterns ?? []) {
      const verdict = checkPattern(custom.pattern, custom.flags);
      if (!verdict.ok) return { ok: false, reason: `pattern ${custom.name}: ${verdict.reason}` };
      const guard = `pattern:${custom.name}`;
      const regex = verdict.regex;
      detectors.push({ guard, label: labelOf(custom.name), action: custom.action, detect: (text) => collect(regex, text, guard) });
    }
    const injection = settings['prompt-injection'];
    const indirect = settings['indirect-injection'];
    const maxInput = settings['max-input-size'];
    return {
      ok: true,
      policy: new GuardPolicy({
        detectors,
        injection: injection === undefined ? undefined : { action: injection.action, threshold: injection.threshold ?? defaultInjectionThreshold },
        indirectInjection: indirect === undefined ? undefined : { action: indirect.action, threshold: indirect.threshold ?? defaultInjectionThreshold },
        maxInputBytes: maxInput === undefined ? undefined : { action: maxInput.action, maxBytes: maxInput.maxBytes },
        restore: settings.restore ?? true,
        moderation: compileModeration(settings.moderation),
        judge: compileJudge(settings['injection-judge']),
      }),
    };
  }
}

function compileModeration(setting: GuardSettings['moderation']): CompiledModeration | undefined {
  if (setting === undefined) return undefined;
  return {
    action: setting.action,
    model: setting.model ?? defaultModerationModel,
    categories: setting.categories,
    threshold: setting.threshold,
    failClosed: setting.onError === 'block',
  };
}

function compileJudge(setting: GuardSettings['injection-judge']): CompiledJudge | undefined {
  if (setting === undefined) return undefined;
  return {
    action: setting.action,
    model: setting.model,
    threshold: setting.threshold ?? defaultInjectionThreshold,
    always: setting.when === 'always',
    failClosed: setting.onError === 'block',
  };
}

/** A custom guard's placeholder label: its name upper-cased, anything but letters and digits as `_`. */
function labelOf(name: string): string {
  const label = name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[A-Z]/.test(label) ? label : `P_${label}`;
}

function collect(regex: RegExp, text: string, kind: string): Detection[] {
  const found: Detection[] = [];
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (match[0].length === 0) {
      regex.lastIndex += 1;
      continue;
    }
    found.push({ kind, start: match.index, end: match.index + match[0].length });
  }
  return found;
}
