import type { GuardrailSettings } from '../generated/schema-types.js';

/**
 * What a merchant, an API key, a route group, a request header or a library call says about guards: the
 * `GuardrailSettings` schema (schemas/http/guardrails/guardrail-settings.json). Every layer is optional and
 * partial; layers combine with `combineGuardSettings`, which only ever makes the result stricter, so no
 * layer can switch off what another (or the default) turned on.
 */
export type GuardSettings = Readonly<GuardrailSettings>;

/** `log` records the finding, `mask` replaces the value with a placeholder, `block` refuses the call. Ordered by strictness. */
export const guardActions = ['log', 'mask', 'block'] as const;
export type GuardAction = (typeof guardActions)[number];

export type CustomPatternSetting = NonNullable<GuardrailSettings['patterns']>[number];

/**
 * The defaults every merchant gets: card numbers masked (PCI DSS data never leaves for a model provider).
 * Nothing can weaken them; a merchant can raise card numbers to `block` and turn other guards on.
 */
export const defaultGuardSettings: GuardSettings = Object.freeze({ card: Object.freeze({ action: 'mask' as const }) });

export const defaultInjectionThreshold = 0.5;

export function stricterAction(left: GuardAction | undefined, right: GuardAction | undefined): GuardAction | undefined {
  if (left === undefined) return right;
  if (right === undefined) return left;
  return guardActions.indexOf(left) >= guardActions.indexOf(right) ? left : right;
}

/** Both layers at once, the stricter wins everywhere: actions, lower thresholds and size limits, deny-lists and patterns united. */
export function combineGuardSettings(base: GuardSettings, addition: GuardSettings | undefined): GuardSettings {
  if (addition === undefined) return base;
  const combined: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(addition)) {
    if (value === undefined) continue;
    const current = (base as Record<string, unknown>)[key];
    combined[key] = current === undefined ? value : combineEntry(key, current, value);
  }
  return combined as GuardSettings;
}

function combineEntry(key: string, current: unknown, value: unknown): unknown {
  if (key === 'restore') return current === true && value === true;
  if (key === 'patterns') {
    const seen = new Set((current as CustomPatternSetting[]).map((entry) => JSON.stringify(entry)));
    return [...(current as CustomPatternSetting[]), ...(value as CustomPatternSetting[]).filter((entry) => !seen.has(JSON.stringify(entry)))];
  }
  const left = current as { action: GuardAction; threshold?: number; maxBytes?: number; terms?: readonly string[] };
  const right = value as typeof left;
  const merged: Record<string, unknown> = { action: stricterAction(left.action, right.action) };
  const threshold = minDefined(left.threshold, right.threshold);
  if (threshold !== undefined) merged['threshold'] = threshold;
  const maxBytes = minDefined(left.maxBytes, right.maxBytes);
  if (maxBytes !== undefined) merged['maxBytes'] = maxBytes;
  if (left.terms !== undefined || right.terms !== undefined) merged['terms'] = [...new Set([...(left.terms ?? []), ...(right.terms ?? [])])];
  return key === 'moderation' || key === 'injection-judge' ? combineCheck(current as CheckSetting, value as CheckSetting, merged) : merged;
}

interface CheckSetting {
  readonly model?: string;
  readonly categories?: readonly string[];
  readonly when?: 'inconclusive' | 'always';
  readonly onError?: 'allow' | 'block';
}

/**
 * The moderation and judge guards' own fields, stricter wins: the first layer's model (the merchant's choice
 * stands), categories united (a layer naming none counts every category, which is stricter), a judge run
 * `always` over `inconclusive`, fail-closed (`onError: block`) over fail-open.
 */
function combineCheck(left: CheckSetting, right: CheckSetting, merged: Record<string, unknown>): Record<string, unknown> {
  const model = left.model ?? right.model;
  if (model !== undefined) merged['model'] = model;
  if (left.categories !== undefined && right.categories !== undefined) merged['categories'] = [...new Set([...left.categories, ...right.categories])];
  if (left.when !== undefined || right.when !== undefined) merged['when'] = left.when === 'always' || right.when === 'always' ? 'always' : 'inconclusive';
  if (left.onError !== undefined || right.onError !== undefined) merged['onError'] = left.onError === 'block' || right.onError === 'block' ? 'block' : 'allow';
  return merged;
}

function minDefined(left: number | undefined, right: number | undefined): number | undefined {
  if (left === undefined) return right;
  if (right === undefined) return left;
  return Math.min(left, right);
}
