/** One line of an OpenAI batch, as the gateway is asked to run it. */
export interface GatewayLineCall {
  readonly merchantId: string;
  /** The API key the batch was created with: the line runs under its limits and budget. */
  readonly apiKeyId: string;
  /** `/v1/chat/completions`, `/v1/responses` or `/v1/embeddings`. */
  readonly url: string;
  readonly body: Readonly<Record<string, unknown>>;
  /** The line's request id (the same on every attempt): its `llm.call` records carry it. */
  readonly requestId: string;
  /** The batch, the line's job (`<batchId>:<index>`) and its delivery attempt, carried by its `llm.call` records as a toolkit batch item's are. */
  readonly batchId: string;
  readonly jobId: string;
  readonly jobAttempt: number;
}

/** What the gateway answered: the status and JSON body a direct call would have got. */
export interface GatewayLineAnswer {
  readonly statusCode: number;
  readonly body: unknown;
  /** The provider and model that answered (the routing decision's headers), when one did. */
  readonly provider?: string;
  readonly model?: string;
}

/**
 * Runs a batch line through the gateway's own route for its `url`, as a direct call with the
 * batch's API key would run: authentication of the key (a revoked key is refused), its limits and
 * budget, validation, guards, routing, the response cache, `llm.call` records and spend. Built by
 * the composition root over the HTTP app (api/gateway-line-runner.ts).
 *
 * @remarks Resolves with whatever the route answered, errors included (their status and OpenAI
 * error body go to the error file); rejects only when the route could not be reached at all.
 */
export interface GatewayLineRunner {
  run(call: GatewayLineCall): Promise<GatewayLineAnswer>;
}
