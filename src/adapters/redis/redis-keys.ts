/**
 * The Redis key layout of the state store, in one place so ops can find any key.
 *
 * Keys that one script or MULTI touches together share a Redis-cluster hash tag (`{…}`): a window and
 * its dedupe markers (`{<window>_}`, the decision-engine SR v3 layout), an elimination score and its
 * markers, all operator-user keys (`{users}`) and all API-key keys (`{api-keys}`). The prefix comes
 * first and must not contain braces, or it would become the hash tag itself.
 */
export interface RedisKeys {
  merchant(merchantId: string): string;
  config(merchantId: string, name: string): string;
  /** decision-engine `{gw_sr_v3_score_…_}queue`: outcomes of one window, newest first. */
  window(windowKey: string): string;
  windowDedupe(windowKey: string, dedupeKey: string): string;
  elimination(eliminationKey: string): string;
  eliminationDedupe(eliminationKey: string, dedupeKey: string): string;
  /** SCAN patterns matching every window / elimination key (and their dedupe markers) that starts with a prefix. */
  windowScanPattern(windowKeyPrefix: string): string;
  eliminationScanPattern(eliminationKeyPrefix: string): string;
  /** The window key of a Redis window key (`{<window>_}queue`); undefined for any other key (a dedupe marker). */
  windowKeyOf(redisKey: string): string | undefined;
  /** The elimination key of a Redis elimination key (`{<key>}`); undefined for any other key (a dedupe marker). */
  eliminationKeyOf(redisKey: string): string | undefined;
  /** decision-engine `gateway_scoring_data_<paymentId>`, scoped by merchant. */
  decisionContext(merchantId: string, paymentId: string): string;
  user(userId: string): string;
  userEmail(email: string): string;
  userMemberships(userId: string): string;
  /** The reverse membership index: user id → role of one merchant's members (same `{users}` slot). */
  merchantMembers(merchantId: string): string;
  apiKey(keyId: string): string;
  apiKeyHash(keyHash: string): string;
  merchantApiKeys(merchantId: string): string;
  /** Limit counters of one API key (`{usage:<keyId>}`: one script touches them together). */
  usage(keyId: string, part: string): string;
  /** A cached gateway answer (`{cache:<merchant>}<sha256>`): a merchant's entries share its hash tag. */
  responseCache(merchantId: string, requestHash: string): string;
  /** The candidate holding a conversation's prompt cache (`{aff:<merchant>}<group>:<sha256>`): a merchant's entries share its hash tag. */
  cacheAffinity(merchantId: string, routeGroup: string, key: string): string;
  /** A customer's sticky-routing counts (`{stk:<merchant>:<customer>}counts`) and their dedupe markers, in one slot. */
  stickyCounts(merchantId: string, customerKey: string): string;
  stickyDedupe(merchantId: string, customerKey: string, dedupeKey: string): string;
  /** A stored Responses API response (`{resp:<merchant>}<id>`): a merchant's responses share its hash tag. */
  storedResponse(merchantId: string, responseId: string): string;
  /** A conversation's messages (LIST) and meta (HASH): `{conv:<merchant>:<session>}turns|meta`, one slot per session. */
  conversationTurns(merchantId: string, sessionId: string): string;
  conversationMeta(merchantId: string, sessionId: string): string;
  /** decision-engine `jwt_revoked:<jti>`. */
  revokedToken(tokenId: string): string;
  loginFailures(subject: string): string;
  /** A one-time token (issue 25), under the SHA-256 of the token: `{users}` like the records it names. */
  oneTimeToken(purpose: string, tokenHash: string): string;
  userEmailVerified(userId: string): string;
  /** The user's "sessions issued before T are invalid" cutoff. */
  sessionCutoff(userId: string): string;
  /** A one-time code's payload, keyed by the code's hash (`one_time:<purpose>:<sha256>`). */
  oneTimeCode(purpose: string, codeHash: string): string;
  probe(nonce: string): string;
  invalidationChannel(): string;
  /** Routing algorithms: one hash tag (`{routing}`) so update/delete can check the mapping atomically. */
  routingAlgorithm(id: string): string;
  routingByMerchant(merchantId: string): string;
  routingActive(merchantId: string): string;
  /** A batch's keys share the `{batch:<id>}` hash tag: its scripts touch record, progress and results together. */
  batchRecord(batchId: string): string;
  batchProgress(batchId: string): string;
  batchPrompts(batchId: string): string;
  batchResults(batchId: string): string;
  /** SET of batch ids with items still pending (what a starting generation worker resumes). */
  batchesUnfinished(): string;
  /** ZSET of a merchant's OpenAI batch ids, scored by creation time (GET /v1/batches). */
  openAiBatchesOf(merchantId: string): string;
}

/** A literal for a SCAN MATCH pattern: glob-special characters escaped. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

export function createRedisKeys(prefix: string): RedisKeys {
  if (prefix.includes('{') || prefix.includes('}')) {
    throw new TypeError('keyPrefix must not contain "{" or "}": it would become the cluster hash tag');
  }
  // Merchant ids are free text; encoding them keeps `<merchant>:<payment>` unambiguous when an id holds ':'.
  const part = (value: string): string => encodeURIComponent(value);
  return {
    merchant: (merchantId) => `${prefix}merchant:${merchantId}`,
    config: (merchantId, name) => `${prefix}config:${part(merchantId)}:${name}`,
    window: (windowKey) => `${prefix}{${windowKey}_}queue`,
    windowDedupe: (windowKey, dedupeKey) => `${prefix}{${windowKey}_}dedupe:${dedupeKey}`,
    elimination: (eliminationKey) => `${prefix}{${eliminationKey}}`,
    eliminationDedupe: (eliminationKey, dedupeKey) => `${prefix}{${eliminationKey}}dedupe:${dedupeKey}`,
    windowScanPattern: (windowKeyPrefix) => `${escapeGlob(prefix)}{${escapeGlob(windowKeyPrefix)}*`,
    eliminationScanPattern: (eliminationKeyPrefix) => `${escapeGlob(prefix)}{${escapeGlob(eliminationKeyPrefix)}*`,
    windowKeyOf: (redisKey) =>
      redisKey.startsWith(`${prefix}{`) && redisKey.endsWith('_}queue') ? redisKey.slice(prefix.length + 1, -'_}queue'.length) : undefined,
    // Dedupe markers end in `}dedupe:<merchant>:<payment>:<gateway>:penalise:elimination`, never in `}`.
    eliminationKeyOf: (redisKey) => (redisKey.startsWith(`${prefix}{`) && redisKey.endsWith('}') ? redisKey.slice(prefix.length + 1, -1) : undefined),
    decisionContext: (merchantId, paymentId) => `${prefix}gateway_scoring_data:${part(merchantId)}:${paymentId}`,
    user: (userId) => `${prefix}{users}user:${userId}`,
    userEmail: (email) => `${prefix}{users}email:${email}`,
    userMemberships: (userId) => `${prefix}{users}memberships:${userId}`,
    merchantMembers: (merchantId) => `${prefix}{users}members:${part(merchantId)}`,
    usage: (keyId, name) => `${prefix}{usage:${part(keyId)}}${name}`,
    responseCache: (merchantId, requestHash) => `${prefix}{cache:${part(merchantId)}}${requestHash}`,
    cacheAffinity: (merchantId, routeGroup, key) => `${prefix}{aff:${part(merchantId)}}${part(routeGroup)}:${part(key)}`,
    stickyCounts: (merchantId, customerKey) => `${prefix}{stk:${part(merchantId)}:${part(customerKey)}}counts`,
    stickyDedupe: (merchantId, customerKey, dedupeKey) => `${prefix}{stk:${part(merchantId)}:${part(customerKey)}}dedupe:${dedupeKey}`,
    storedResponse: (merchantId, responseId) => `${prefix}{resp:${part(merchantId)}}${part(responseId)}`,
    conversationTurns: (merchantId, sessionId) => `${prefix}{conv:${part(merchantId)}:${part(sessionId)}}turns`,
    conversationMeta: (merchantId, sessionId) => `${prefix}{conv:${part(merchantId)}:${part(sessionId)}}meta`,
    apiKey: (keyId) => `${prefix}{api-keys}key:${keyId}`,
    apiKeyHash: (keyHash) => `${prefix}{api-keys}hash:${keyHash}`,
    merchantApiKeys: (merchantId) => `${prefix}{api-keys}merchant:${merchantId}`,
    revokedToken: (tokenId) => `${prefix}jwt_revoked:${tokenId}`,
    loginFailures: (subject) => `${prefix}login_failures:${subject}`,
    oneTimeToken: (purpose, tokenHash) => `${prefix}{users}${purpose}:${tokenHash}`,
    userEmailVerified: (userId) => `${prefix}{users}verified:${userId}`,
    sessionCutoff: (userId) => `${prefix}{users}session_cutoff:${userId}`,
    oneTimeCode: (purpose, codeHash) => `${prefix}one_time:${purpose}:${codeHash}`,
    probe: (nonce) => `${prefix}probe:${nonce}`,
    invalidationChannel: () => `${prefix}invalidation`,
    routingAlgorithm: (id) => `${prefix}{routing}algo:${part(id)}`,
    routingByMerchant: (merchantId) => `${prefix}{routing}by:${part(merchantId)}`,
    routingActive: (merchantId) => `${prefix}{routing}active:${part(merchantId)}`,
    batchRecord: (batchId) => `${prefix}{batch:${part(batchId)}}record`,
    batchProgress: (batchId) => `${prefix}{batch:${part(batchId)}}progress`,
    batchPrompts: (batchId) => `${prefix}{batch:${part(batchId)}}prompts`,
    batchResults: (batchId) => `${prefix}{batch:${part(batchId)}}results`,
    batchesUnfinished: () => `${prefix}batches:unfinished`,
    openAiBatchesOf: (merchantId) => `${prefix}batches:openai:${part(merchantId)}`,
  };
}
