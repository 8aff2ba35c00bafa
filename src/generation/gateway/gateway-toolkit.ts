import type { EmbedOptions, EmbedResult } from '../embeddings/embed-options.js';
import type { GenerateOptions, StreamOptions } from '../generate-options.js';
import type { GenerateResult, StreamResult } from '../generate-result.js';
import type { NativeTokenCountRequest } from '../language-model-client.js';
import type { CallAttribution } from '../llm-call-record.js';
import type { NativeWire, NativeWireRequest, NativeWireResponse } from '../native-wire.js';
import type { ProviderName } from '../provider-name.js';

/** One place a gateway request may go: a provider kind and its model. */
export interface GatewayCandidate {
  readonly provider: ProviderName;
  readonly model: string;
}

/**
 * The toolkit as the gateway's use cases call it: one target, or a ranked list of candidates tried
 * in order on retryable failures (failover before the first byte). `NeuroLink` satisfies it.
 *
 * @remarks Narrower than `NeuroLink` on purpose: the gateway never uses its tools, MCP or
 * evaluation surface, and a test can hand in anything with these six methods (the
 * native pass-through's `speaksNatively` and `forward` are optional).
 */
export interface GatewayToolkit {
  generate(options: GenerateOptions): Promise<GenerateResult>;
  generateAcross(candidates: readonly GatewayCandidate[], options: GenerateOptions): Promise<GenerateResult>;
  stream(options: StreamOptions): Promise<StreamResult>;
  streamAcross(candidates: readonly GatewayCandidate[], options: StreamOptions): Promise<StreamResult>;
  embed(options: EmbedOptions): Promise<EmbedResult>;
  embedAcross(candidates: readonly GatewayCandidate[], options: EmbedOptions): Promise<EmbedResult>;
  /**
   * The provider's own input-token count of a request in its wire's shape; `undefined` when the
   * provider has no counting endpoint for that wire. Optional: a toolkit without it never counts.
   */
  countInputTokens?(target: GatewayCandidate, request: NativeTokenCountRequest): Promise<number | undefined>;
  /**
   * Whether the candidate's client passes `wire` through natively. Optional with `forward`: a toolkit
   * without them translates every request.
   */
  speaksNatively?(target: GatewayCandidate, wire: NativeWire): boolean;
  /**
   * Forwards a request natively to one candidate (only `model` rewritten), recorded as an `llm.call`
   * (`hop`: candidates tried before it); undefined when it does not speak the wire.
   */
  forward?(
    target: GatewayCandidate,
    request: NativeWireRequest,
    context: { readonly attribution: CallAttribution; readonly hop: number },
  ): Promise<NativeWireResponse | undefined>;
}
