import { reservationUsd } from '../../governance/reservation.js';
import { DEFAULT_MAX_TOKENS } from '../normalize-options.js';
import type { GatewayRouter } from './gateway-router.js';

/** What a gateway request may cost at most, as its wire states it. */
export interface ReservationRequest {
  readonly merchantId: string;
  /** The request's `model`: a target or a route group. */
  readonly model: string;
  /** The prompt as sent (messages, input texts): its JSON length bounds its tokens. */
  readonly prompt: unknown;
  /** Most output tokens (undefined: the toolkit's default); 0 for embeddings, which produce none. */
  readonly maxTokens: number | undefined;
}

/**
 * The budget reservation of a gateway request (src/governance/reservation.ts): the dearest place it
 * can go, so a route group is priced at its dearest candidate. Every wire prices its requests here.
 *
 * @remarks Every prompt token is reserved at the full input price, never at a prompt-cache read
 * price: whether the provider reads the prefix from its cache is known only from the answer's usage
 * (a cache expires, is evicted, lives on another deployment, or the prefix is under the provider's
 * minimum), so assuming the discount up front would let concurrent requests of one key overshoot its
 * budget by up to 10× on the prompt. Nor at the write price: Anthropic's cache writes (1.25×, 2× for
 * 1 hour) are opt-in per block and rare after a session's first turn, and the prompt is already
 * counted generously (a token per 3 characters, about 4 in practice). The reservation is released
 * when the call ends, and the key's spend then counts the call's real cost, cache prices included
 * (`costUsd` of its `llm.call`, src/governance/count-spend.ts).
 */
export async function gatewayReservationUsd(router: Pick<GatewayRouter, 'pricesOf'>, request: ReservationRequest): Promise<number> {
  const prices = await router.pricesOf(request.merchantId, request.model);
  return reservationUsd(prices, JSON.stringify(request.prompt).length, request.maxTokens ?? DEFAULT_MAX_TOKENS);
}
