import type { GatewayRouter } from './gateway-router.js';
import { estimateMessagesInputTokens, messagesPrompt, type AnthropicMessagesRequest } from './anthropic-messages-request.js';

/** Where a token count came from: the provider's own counter, or the registry's heuristic. */
export type TokenCountSource = 'provider' | 'estimate';

export interface MessageTokenCount {
  readonly inputTokens: number;
  readonly source: TokenCountSource;
}

/**
 * `count_tokens` of the Messages wire: the model must name somewhere the gateway can send it (a
 * provider/model, a registry alias or one of the merchant's route groups), then the request's input
 * tokens are estimated by the registry's heuristic (~4 characters a token). No provider adapter
 * exposes a counting endpoint yet, so the source is always `estimate`.
 */
export class MessageTokenCounter {
  readonly #router: Pick<GatewayRouter, 'routeOf'>;

  constructor(router: Pick<GatewayRouter, 'routeOf'>) {
    this.#router = router;
  }

  /** @throws SwitchyardError `SY_MODEL_NOT_FOUND` when `model` names nothing known. */
  async count(merchantId: string, request: Pick<AnthropicMessagesRequest, 'model' | 'system' | 'messages' | 'tools'>): Promise<MessageTokenCount> {
    await this.#router.routeOf(merchantId, request.model, messagesPrompt(request));
    return { inputTokens: estimateMessagesInputTokens(request), source: 'estimate' };
  }
}
