import type { ProviderCalls } from '../provider-calls.js';
import type { ProviderName } from '../provider-name.js';

/** One place a gateway request may go: a provider kind and its model (and, from a route group, which of the merchant's credentials pays). */
export interface GatewayCandidate {
  readonly provider: ProviderName;
  readonly model: string;
  readonly credential?: string;
}

/**
 * The provider-protocol layer as the gateway's use cases call it (src/generation/provider-calls.ts):
 * a translated request to a target or to a route group's ranked candidates (failover before the
 * first byte), the native pass-through of a wire its candidate speaks, the provider's own token
 * count, and embeddings. The toolkit (`NeuroLink.providerCalls`) calls models through the same
 * layer, but the gateway never goes through the toolkit's options: NeuroLink's documented
 * defaults (temperature 0.7, maxTokens 1000) are the toolkit API's, and a gateway sends on only
 * what its client sent.
 *
 * @remarks Narrower than `ProviderCalls` on purpose, so a test can hand in anything with these
 * methods.
 */
export type GatewayProviderCalls = Pick<ProviderCalls, 'generate' | 'stream' | 'embed' | 'forward' | 'countInputTokens' | 'requireConfigured' | 'scopeOf'>;
