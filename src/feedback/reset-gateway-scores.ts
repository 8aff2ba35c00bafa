import paymentInfoSchema from '../../schemas/http/gateway-decision/payment-info.json' with { type: 'json' };
import { autopilotSource } from '../decision/autopilot/plan-calibration.js';
import { merchantEliminationKeyPrefix } from '../decision/elimination-key.js';
import { requireMerchant } from '../decision/inputs/merchant-settings.js';
import { merchantWindowKeyPrefix } from '../decision/window-key.js';
import type { SuccessRateConfig } from '../generated/schema-types.js';
import type { ScoreSelection, StateStore } from '../ports/state-store.js';

/** Every order type a decision can key its scores by (the `paymentType` enum; the legacy request's is the same). */
const orderTypes: readonly string[] = paymentInfoSchema.properties.paymentType.enum;

export interface GatewayScoreReset {
  /** Success-rate windows and elimination scores deleted. */
  readonly deletedKeys: number;
  /** Autopilot-written sub-level entries removed from the merchant's successRate config. */
  readonly removedOverrides: number;
}

/**
 * POST /gateway-score/reset: forgets what routing has learned for one merchant, so the next
 * decisions start from the optimistic baseline. Deletes its success-rate windows and elimination
 * scores, and removes the sub-level successRate entries autopilot wrote (`source: "autopilot"`);
 * entries a human wrote stay, and so does every other setting. `SY_MERCHANT_NOT_FOUND` for an
 * unknown merchant.
 */
export async function resetGatewayScores(state: Pick<StateStore, 'merchants' | 'configs' | 'scores'>, merchantId: string): Promise<GatewayScoreReset> {
  await requireMerchant(state, merchantId);
  const removedOverrides = await removeAutopilotOverrides(state.configs, merchantId);
  const deletedKeys = await state.scores.deleteScores(merchantScoreSelection(merchantId));
  return { deletedKeys, removedOverrides };
}

/**
 * The score keys of one merchant. Keys are `<prefix>_<merchant>_<orderType>_…`, and a merchant id
 * may itself hold `_`: a key belongs to merchant `m` only when an order type follows `m_`, so the
 * keys of merchant `m_1` (`…_m_1_ORDER_PAYMENT_…`) are not `m`'s.
 *
 * @remarks An id that ends in `_<ORDER TYPE>` (merchant `m_ORDER_PAYMENT` beside merchant `m`) is
 * still ambiguous: its keys read like `m`'s. Such ids are not worth a key-layout change.
 */
export function merchantScoreSelection(merchantId: string): ScoreSelection {
  const windowKeyPrefix = merchantWindowKeyPrefix(merchantId);
  const eliminationKeyPrefix = merchantEliminationKeyPrefix(merchantId);
  const followedByOrderType = (rest: string) => orderTypes.some((orderType) => rest.startsWith(`${orderType}_`) || rest === orderType);
  return {
    windowKeyPrefix,
    eliminationKeyPrefix,
    owns(key) {
      if (key.startsWith(windowKeyPrefix)) return followedByOrderType(key.slice(windowKeyPrefix.length));
      if (key.startsWith(eliminationKeyPrefix)) return followedByOrderType(key.slice(eliminationKeyPrefix.length));
      return false;
    },
  };
}

async function removeAutopilotOverrides(configs: StateStore['configs'], merchantId: string): Promise<number> {
  const config = await configs.get(merchantId, 'successRate');
  const entries = config?.subLevelInputConfig;
  if (config === undefined || entries === null || entries === undefined) return 0;
  const kept = entries.filter((entry) => entry.source !== autopilotSource);
  const removed = entries.length - kept.length;
  if (removed === 0) return 0;
  const next: SuccessRateConfig = { ...config, subLevelInputConfig: kept };
  // 'update': a config deleted meanwhile is not brought back.
  await configs.put(merchantId, 'successRate', next, 'update');
  return removed;
}
