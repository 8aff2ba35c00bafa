import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { RouteGroup as RouteGroupBody } from '../../generated/schema-types.js';
import type { ConfigStore, ScoreStore } from '../../ports/state-store.js';
import { registryFactsOf, routeGroupsOf, type GatewayModelRegistry } from './gateway-router.js';
import { UnsupportedChatRequest } from './openai-chat-request.js';
import { credentialKey } from '../../ports/state/provider-credentials.js';
import { normalizeProviderName } from '../provider-name.js';
import { candidateWindowKey, routeGroupProblems, toRouteGroup, type RouteGroup } from './route-group.js';

export interface RouteGroupServiceDeps {
  /** Where a merchant's groups are kept (`llmRouteGroups`, upserted whole). */
  readonly configs: Pick<ConfigStore, 'get' | 'put'>;
  /** The candidates' learned windows, shown by `get`. */
  readonly scores: Pick<ScoreStore, 'readWindows'>;
  /** Capabilities and prices a new group's candidates are checked against. */
  readonly models: GatewayModelRegistry;
}

/** A route group candidate with what the learning router knows of it now. */
export interface CandidateStatus {
  readonly provider: string;
  readonly model: string;
  readonly weight: number;
  /** Successes over outcomes in its window; null before its first outcome. */
  readonly successRate: number | null;
  readonly outcomes: number;
  readonly eliminated: boolean;
}

export type RouteGroupStatus = Omit<RouteGroup, 'candidates'> & { readonly candidates: readonly CandidateStatus[] };

function noSuchGroup(name: string): SwitchyardError {
  return new SwitchyardError('SY_MODEL_NOT_FOUND', { message: `No route group named \`${name}\`` });
}

/**
 * A merchant's route groups (the candidates `model` may name, ranked by the learning router):
 * list, read with each candidate's learned success rate, create or replace, delete. Every wire
 * that manages groups calls this; the merchant comes from the caller's credential.
 */
export class RouteGroupService {
  readonly #deps: RouteGroupServiceDeps;

  constructor(deps: RouteGroupServiceDeps) {
    this.#deps = deps;
  }

  async list(merchantId: string): Promise<readonly RouteGroup[]> {
    return routeGroupsOf(this.#deps.configs, merchantId);
  }

  /** @throws SwitchyardError `SY_MODEL_NOT_FOUND` when the merchant has no group of that name. */
  async get(merchantId: string, name: string): Promise<RouteGroupStatus> {
    const group = (await this.list(merchantId)).find((candidate) => candidate.name === name);
    if (group === undefined) throw noSuchGroup(name);
    const keys = group.candidates.map((candidate) => candidateWindowKey(merchantId, group.name, candidate.provider, candidate.model));
    const windows = await this.#deps.scores.readWindows(keys, group.bucketSize);
    return {
      ...group,
      candidates: group.candidates.map((candidate, index) => {
        const window = windows[index];
        const successRate = window === undefined || window.length === 0 ? null : window.successes / window.length;
        return { ...candidate, successRate, outcomes: window?.length ?? 0, eliminated: successRate !== null && successRate < group.eliminationThreshold };
      }),
    };
  }

  /**
   * Creates or replaces the group `name`, after what the schema cannot check (provider names,
   * the registry's capabilities and prices, duplicates).
   * @throws SwitchyardError `SY_GATEWAY_REQUEST_UNSUPPORTED` naming every problem of the body.
   */
  async put(merchantId: string, name: string, body: RouteGroupBody): Promise<RouteGroup> {
    const problems = [
      ...routeGroupProblems(body, (provider, model) => registryFactsOf(this.#deps.models, provider, model)),
      ...(await this.#credentialProblems(merchantId, body)),
    ];
    if (problems.length > 0) throw new UnsupportedChatRequest(`Invalid route group: ${problems.join('; ')}`, 'candidates');
    const group = toRouteGroup(name, body);
    const others = (await this.list(merchantId)).filter((existing) => existing.name !== group.name);
    await this.#deps.configs.put(merchantId, 'llmRouteGroups', [...others, group], 'upsert');
    return group;
  }

  /** A candidate's `credential` must name one the merchant stored for that candidate's provider. */
  async #credentialProblems(merchantId: string, body: RouteGroupBody): Promise<string[]> {
    if (!body.candidates.some((candidate) => candidate.credential !== undefined)) return [];
    const stored = (await this.#deps.configs.get(merchantId, 'providerCredentials'))?.providers ?? {};
    return body.candidates.flatMap((candidate, index) => {
      if (candidate.credential === undefined) return [];
      const provider = normalizeProviderName(candidate.provider) ?? candidate.provider;
      if (stored[credentialKey(provider, candidate.credential)] !== undefined) return [];
      return [
        `candidates[${index}].credential names no stored ${provider} credential "${candidate.credential}" (store it with PUT /provider-credentials/${provider} first)`,
      ];
    });
  }

  /** @throws SwitchyardError `SY_MODEL_NOT_FOUND` when the merchant has no group of that name. */
  async delete(merchantId: string, name: string): Promise<void> {
    const groups = await this.list(merchantId);
    if (!groups.some((group) => group.name === name)) throw noSuchGroup(name);
    await this.#deps.configs.put(
      merchantId,
      'llmRouteGroups',
      groups.filter((group) => group.name !== name),
      'upsert',
    );
  }
}
