import { ApiError } from './api-error';
import type { HttpClient } from './http-client';
import type {
  ConnectorInfo,
  DebitRoutingConfig,
  DecideGatewayRequest,
  DecidedGateway,
  EliminationConfig,
  RoutingAlgorithm,
  RoutingKeyView,
  SuccessRateConfig,
} from './server-types';

/** A stored routing algorithm as /routing/list answers it. */
export interface RoutingAlgorithmListItem {
  readonly id: string;
  readonly created_by: string;
  readonly name: string;
  readonly description: string;
  readonly algorithm_data: RoutingAlgorithm;
  readonly algorithm_for: string;
  readonly created_at: string;
  readonly modified_at: string;
}

export interface EvaluateResult {
  readonly payment_id: string | null;
  readonly status: string;
  readonly output: unknown;
  readonly evaluated_output: readonly ConnectorInfo[];
  readonly eligible_connectors: readonly ConnectorInfo[];
}

/** What /rule/get answers per algorithm. */
export interface RuleConfigs {
  readonly successRate: SuccessRateConfig;
  readonly elimination: EliminationConfig;
  readonly debitRouting: DebitRoutingConfig;
}

/** Routing rules (euclid), rule configuration, debit routing and decisions, for the session's merchant. */
export function routingApi(http: HttpClient, merchantId: () => string) {
  const ref = (id: string) => ({ created_by: merchantId(), routing_algorithm_id: id });
  const merchantPath = () => encodeURIComponent(merchantId());
  return {
    list: () => http.request<RoutingAlgorithmListItem[]>('POST', `/routing/list/${merchantPath()}`),
    listActive: () => http.request<RoutingAlgorithmListItem[]>('POST', `/routing/list/active/${merchantPath()}`),
    create: (name: string, description: string, algorithm: RoutingAlgorithm) =>
      http.request<{ rule_id: string; name: string }>('POST', '/routing/create', {
        body: { created_by: merchantId(), name, description, algorithm_for: 'payment', algorithm },
      }),
    activate: (id: string) => http.request<void>('POST', '/routing/activate', { body: ref(id) }),
    deactivate: (id: string) => http.request<void>('POST', '/routing/deactivate', { body: ref(id) }),
    remove: (id: string) => http.request<{ status: string }>('POST', '/routing/delete', { body: ref(id) }),
    /** Evaluates `routingAlgorithmId` (active or not: a preview), or the active algorithm when it is undefined. */
    evaluate: (parameters: Record<string, unknown>, routingAlgorithmId?: string) =>
      http.request<EvaluateResult>('POST', '/routing/evaluate', {
        body: {
          created_by: merchantId(),
          payment_id: null,
          parameters,
          ...(routingAlgorithmId !== undefined ? { routing_algorithm_id: routingAlgorithmId } : {}),
        },
      }),
    routingKeys: () => http.request<{ keys: Record<string, RoutingKeyView> }>('GET', '/config/routing-keys'),
    getConfig: async <K extends keyof RuleConfigs>(algorithm: K): Promise<RuleConfigs[K] | undefined> => {
      try {
        const answer = await http.request<{ config: { data: RuleConfigs[K] } }>('POST', '/rule/get', { body: { merchant_id: merchantId(), algorithm } });
        return answer.config.data;
      } catch (error) {
        // 404 "Rule configuration not found": nothing stored yet, the form starts from the defaults.
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      }
    },
    putConfig: <K extends keyof RuleConfigs>(algorithm: K, data: RuleConfigs[K], mode: 'create' | 'update') =>
      http.request<{ message: string }>('POST', `/rule/${mode}`, { body: { merchant_id: merchantId(), config: { type: algorithm, data } } }),
    debitRouting: () => http.request<{ merchant_id: string; debit_routing_enabled: boolean }>('GET', `/merchant-account/${merchantPath()}/debit-routing`),
    setDebitRouting: (enabled: boolean) => http.request<unknown>('POST', `/merchant-account/${merchantPath()}/debit-routing`, { body: { enabled } }),
    decide: (body: DecideGatewayRequest) => http.request<DecidedGateway>('POST', '/decide-gateway', { body }),
  };
}
