import { errorCodeOf } from './error-code-of.js';
import { runFallbackChain, type ChainLink, type ChainOutcome } from './fallback-chain.js';
import type { ChainOperation, GenerationTelemetry } from './telemetry.js';

/**
 * {@link runFallbackChain} observed as ONE model call when the telemetry can (`startChain`): each
 * attempt gets the chain's telemetry, so a request that failed over from one provider to another
 * before its first byte is one span (GenAI conventions: one span over retries), not one per
 * provider. The chain's failure is told with the error code the caller sees.
 */
export async function runObservedChain<T>(
  links: readonly ChainLink[],
  telemetry: GenerationTelemetry,
  operation: ChainOperation,
  attempt: (link: ChainLink, telemetry: GenerationTelemetry) => Promise<T>,
): Promise<ChainOutcome<T>> {
  const chain = telemetry.enabled && telemetry.startChain !== undefined ? telemetry.startChain(operation) : undefined;
  if (chain === undefined) return runFallbackChain(links, (link) => attempt(link, telemetry));
  try {
    const outcome = await runFallbackChain(links, (link) => attempt(link, chain.telemetry));
    chain.succeeded();
    return outcome;
  } catch (error) {
    chain.fail(errorCodeOf(error));
    throw error;
  }
}
