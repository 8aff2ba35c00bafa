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
 */
export async function gatewayReservationUsd(router: Pick<GatewayRouter, 'pricesOf'>, request: ReservationRequest): Promise<number> {
  const prices = await router.pricesOf(request.merchantId, request.model);
  return reservationUsd(prices, JSON.stringify(request.prompt).length, request.maxTokens ?? DEFAULT_MAX_TOKENS);
}
