import { normalizeProviderName, type ProviderName } from '../provider-name.js';
import type { RouteGroup, RouteRule } from '../../ports/state/route-group.js';

export type { RouteRule } from '../../ports/state/route-group.js';

export const maxRouteRules = 10;

/** What a request is, as the rules see it. */
export interface RuleInput {
  readonly promptTokens: number;
}

export type RuleOutcome =
  | { readonly kind: 'ok'; readonly candidates: RouteGroup['candidates']; readonly applied: readonly string[] }
  | { readonly kind: 'refused'; readonly rule: string };

/** 4 characters a token: the usual estimate for English text, good enough to pick a context size. */
export function estimatePromptTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Narrows a group's candidates by its rules, in order. A request that leaves no candidate is
 * refused naming the rule: a residency or context rule is never broken by sending it elsewhere.
 */
export function applyRouteRules(
  group: RouteGroup,
  input: RuleInput,
  contextWindowOf: (provider: ProviderName, model: string) => number | undefined,
): RuleOutcome {
  let candidates = group.candidates;
  const applied: string[] = [];
  for (const rule of group.rules ?? []) {
    if (rule.promptTokensAtLeast !== undefined && input.promptTokens < rule.promptTokensAtLeast) continue;
    candidates = candidates.filter(
      (candidate) =>
        (rule.onlyProviders === undefined || rule.onlyProviders.includes(candidate.provider)) &&
        (rule.minContextWindow === undefined || (contextWindowOf(candidate.provider, candidate.model) ?? 0) >= rule.minContextWindow),
    );
    applied.push(rule.name);
    if (candidates.length === 0) return { kind: 'refused', rule: rule.name };
  }
  return { kind: 'ok', candidates, applied };
}

/** Problems of a body's rules (names the field); the schema has checked shapes. */
export function routeRuleProblems(
  rules:
    | readonly {
        readonly name: string;
        readonly onlyProviders?: readonly string[];
        readonly promptTokensAtLeast?: number;
        readonly minContextWindow?: number;
      }[]
    | undefined,
): string[] {
  if (rules === undefined) return [];
  const problems: string[] = [];
  if (rules.length > maxRouteRules) problems.push(`rules holds ${rules.length} rules; at most ${maxRouteRules}`);
  const names = new Set<string>();
  rules.forEach((rule, index) => {
    if (names.has(rule.name)) problems.push(`rules[${index}].name repeats "${rule.name}"`);
    names.add(rule.name);
    if (rule.onlyProviders === undefined && rule.minContextWindow === undefined)
      problems.push(`rules[${index}] ("${rule.name}") restricts nothing: give onlyProviders or minContextWindow`);
    rule.onlyProviders?.forEach((provider, at) => {
      const kind = normalizeProviderName(provider);
      if (kind === undefined || kind === 'auto') problems.push(`rules[${index}].onlyProviders[${at}] names no provider kind: "${provider}"`);
    });
  });
  return problems;
}

/** The stored form of a valid body's rules (provider names normalised). */
export function toRouteRules(
  rules: readonly {
    readonly name: string;
    readonly onlyProviders?: readonly string[];
    readonly promptTokensAtLeast?: number;
    readonly minContextWindow?: number;
  }[],
): RouteRule[] {
  return rules.map((rule) => ({
    name: rule.name,
    ...(rule.promptTokensAtLeast !== undefined ? { promptTokensAtLeast: rule.promptTokensAtLeast } : {}),
    ...(rule.onlyProviders !== undefined ? { onlyProviders: rule.onlyProviders.map((provider) => normalizeProviderName(provider) as ProviderName) } : {}),
    ...(rule.minContextWindow !== undefined ? { minContextWindow: rule.minContextWindow } : {}),
  }));
}
