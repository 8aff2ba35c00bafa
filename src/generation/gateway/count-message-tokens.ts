import type { Logger } from '../../logging/logger.js';
import type { GatewayRouter } from './gateway-router.js';
import type { GatewayCandidate, GatewayProviderCalls } from './gateway-provider-calls.js';
import { estimateMessagesInputTokens, messagesPrompt, type AnthropicMessagesRequest } from './anthropic-messages-request.js';

/** Where a token count came from: the provider's own counter, or the registry's heuristic. */
export type TokenCountSource = 'provider' | 'estimate';

export interface MessageTokenCount {
  readonly inputTokens: number;
  readonly source: TokenCountSource;
}

/** What a count asks beside the body: the client's headers for the upstream, where to log a fallback. */
export interface MessageTokenCountContext {
  /** Request headers for an Anthropic upstream (`anthropic-version`, `anthropic-beta`). */
  readonly anthropicHeaders?: Readonly<Record<string, string>>;
  readonly log?: Logger;
}

/** How long the provider's counter may take before the estimate answers instead. */
const providerCountTimeoutMs = 10_000;

/**
 * `count_tokens` of the Messages wire. The model must name somewhere the gateway can send it (a
 * provider/model, a registry alias or one of the merchant's route groups); the place a Messages
 * request would go first (a route group's top-ranked candidate) is asked for its own count when
 * it has a counter for this wire (Anthropic's `/v1/messages/count_tokens`), with the client's
 * Anthropic headers. Any other provider, or a counter that fails or is slow, gives the registry's
 * heuristic estimate (~4 characters a token); the answer says which.
 */
export class MessageTokenCounter {
  readonly #router: Pick<GatewayRouter, 'routeOf'>;
  readonly #calls: Pick<GatewayProviderCalls, 'countInputTokens'> | undefined;

  constructor(router: Pick<GatewayRouter, 'routeOf'>, calls?: Pick<GatewayProviderCalls, 'countInputTokens'>) {
    this.#router = router;
    this.#calls = calls;
  }

  /** @throws SwitchyardError `SY_MODEL_NOT_FOUND` when `model` names nothing known. */
  async count(
    merchantId: string,
    request: Pick<AnthropicMessagesRequest, 'model' | 'system' | 'messages' | 'tools'>,
    context: MessageTokenCountContext = {},
  ): Promise<MessageTokenCount> {
    const route = await this.#router.routeOf(merchantId, request.model, messagesPrompt(request));
    const target: GatewayCandidate | undefined = route.kind === 'direct' ? route.target : route.ranking.candidates[0];
    const counted = target === undefined ? undefined : await this.#providerCount(merchantId, target, request, context);
    return counted !== undefined ? { inputTokens: counted, source: 'provider' } : { inputTokens: estimateMessagesInputTokens(request), source: 'estimate' };
  }

  /** The provider's count with the credentials the merchant's call would use (its own key; never the operator's where it forbade them). */
  async #providerCount(merchantId: string, target: GatewayCandidate, request: object, context: MessageTokenCountContext): Promise<number | undefined> {
    const countInputTokens = this.#calls?.countInputTokens.bind(this.#calls);
    if (countInputTokens === undefined) return undefined;
    try {
      return await countInputTokens(
        target,
        {
          wire: 'anthropic-messages',
          body: request as Readonly<Record<string, unknown>>,
          ...(context.anthropicHeaders !== undefined && target.provider === 'anthropic' ? { headers: context.anthropicHeaders } : {}),
          abortSignal: AbortSignal.timeout(providerCountTimeoutMs),
        },
        merchantId,
      );
    } catch (error) {
      context.log?.warn({ err: error, provider: target.provider, model: target.model }, 'the provider could not count tokens; answering the estimate');
      return undefined;
    }
  }
}
