import type { KeyPolicy } from '../../governance/key-policy.js';
import type { CallAttribution } from '../llm-call-record.js';

/**
 * Who a gateway call is for, as the authentication plugin established it: the merchant it acts
 * for, the API key's own policy when it came with a key (sessions have none, and never use the
 * response cache), and what its model calls' records carry (merchant, user or key, request).
 */
export interface GatewayCaller {
  readonly merchantId: string;
  /** Set for API-key callers (`{}` for a key without a policy of its own); undefined for sessions. */
  readonly apiKeyPolicy: KeyPolicy | undefined;
  readonly attribution: CallAttribution;
}
