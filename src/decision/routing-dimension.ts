import type { PaymentDimensions } from '../generated/schema-types.js';
import { keyComponent } from './key-component.js';

export interface RoutingDimension {
  readonly routingDimension: string;
  readonly routingDimensionLevel: 'CARD_LEVEL' | 'PM_LEVEL';
}

/**
 * The informational `routing_dimension` / `routing_dimension_level` of a decision (§3.4):
 * `"<orderType>, <PMT>, <PM>[, <cardType>]"` with empty parts as UNKNOWN; CARD_LEVEL for card
 * payments, else PM_LEVEL.
 *
 * @remarks AUTH_LEVEL, BANK_LEVEL and UPI_SOURCE_LEVEL need per-merchant flags and bank / UPI
 * handle lists that the 1.4.0 interface cannot configure, so they are never produced.
 */
export function routingDimensionOf(payment: PaymentDimensions): RoutingDimension {
  const base = `${keyComponent(payment.orderType)}, ${keyComponent(payment.paymentMethodType)}, ${keyComponent(payment.paymentMethod)}`;
  if (payment.paymentMethodType === 'CARD') {
    return { routingDimension: `${base}, ${keyComponent(payment.cardType)}`, routingDimensionLevel: 'CARD_LEVEL' };
  }
  return { routingDimension: base, routingDimensionLevel: 'PM_LEVEL' };
}
