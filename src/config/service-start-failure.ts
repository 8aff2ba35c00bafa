import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ClickHouseSecurity, KafkaSecurity, RedisSecurity } from './service-security.js';

/**
 * Turns a failed first connection to Redis, Kafka or ClickHouse into a start-up error that names the
 * variable to fix ("KAFKA_SASL_PASSWORD: SASL authentication failed for user x at host:port",
 * "REDIS_TLS_CA_FILE: certificate verify failed …"). Only TLS and authentication failures are
 * explained; anything else (a server that is down) is left to the adapter's own error.
 *
 * The original error is not kept as `cause`: client errors may carry the command that failed (an
 * AUTH with its password). The message names the user, never a password.
 */

export type SecurityFailureKind = 'certificate' | 'hostname' | 'client-certificate' | 'handshake' | 'authentication';

export interface SecurityFailure {
  readonly kind: SecurityFailureKind;
  /** The TLS error code or the server's refusal, without secrets. */
  readonly reason: string;
}

const certificateCodes = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REJECTED',
]);

const clientCertificateCodes =
  /^ERR_SSL_(TLSV13_ALERT_CERTIFICATE_REQUIRED|SSLV3_ALERT_BAD_CERTIFICATE|TLSV1_ALERT_UNKNOWN_CA|SSLV3_ALERT_HANDSHAKE_FAILURE|PEER_DID_NOT_RETURN_A_CERTIFICATE)$/;

const authenticationMessages = [
  /WRONGPASS/,
  /NOAUTH/,
  /invalid username-password pair/i,
  /SASL authentication failed/i,
  /Authentication failed/i,
  /Wrong password for user/i,
  /Unknown user/i,
  /\bCode: (192|193|516)\b/,
  /AUTHENTICATION_FAILED/,
];

function classify(error: Error): SecurityFailure | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (certificateCodes.has(code)) return { kind: 'certificate', reason: code };
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { kind: 'hostname', reason: code };
    if (clientCertificateCodes.test(code)) return { kind: 'client-certificate', reason: code };
    if (code.startsWith('ERR_SSL_')) return { kind: 'handshake', reason: code };
    if (code === 'PLT_KFK_AUTHENTICATION') return { kind: 'authentication', reason: 'SASL authentication failed' };
  }
  if (/wrong version number|TLS handshake failed|before secure TLS connection was established/i.test(error.message)) {
    return { kind: 'handshake', reason: 'no TLS answer' };
  }
  const refusal = authenticationMessages.find((pattern) => pattern.test(error.message));
  if (refusal !== undefined) return { kind: 'authentication', reason: error.message.split('\n')[0]!.slice(0, 200) };
  return undefined;
}

/** The first TLS or authentication failure in `error`, its causes, aggregated errors and a cluster's last node error. */
export function securityFailureOf(error: unknown, depth = 0): SecurityFailure | undefined {
  if (!(error instanceof Error) || depth > 8) return undefined;
  const own = classify(error);
  if (own !== undefined) return own;
  const errors = (error as { errors?: unknown }).errors;
  // ioredis' cluster client keeps the last node's failure apart (ClusterAllFailedError.lastNodeError).
  const nested = [
    (error as { cause?: unknown }).cause,
    (error as { lastNodeError?: unknown }).lastNodeError,
    ...(Array.isArray(errors) ? (errors as unknown[]) : []),
  ];
  for (const inner of nested) {
    const found = securityFailureOf(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The leaf errors of `error` (its causes and aggregated errors, followed down to those with neither). */
function leafErrorsOf(error: unknown, depth = 0): Error[] {
  if (!(error instanceof Error) || depth > 8) return [];
  const errors = (error as { errors?: unknown }).errors;
  const inner = [(error as { cause?: unknown }).cause, ...(Array.isArray(errors) ? (errors as unknown[]) : [])].filter((item) => item instanceof Error);
  return inner.length === 0 ? [error] : inner.flatMap((item) => leafErrorsOf(item, depth + 1));
}

/**
 * A TLS broker that requires a client certificate, asked without one: under TLS 1.3 its refusal
 * reaches the client only as a closed connection, on every attempt. (A broker that is down refuses
 * the connection instead, and one that closed a connection once, for another reason, does not close
 * them all.)
 */
function closedEveryTlsConnection(error: unknown): boolean {
  const leaves = leafErrorsOf(error);
  return leaves.length > 0 && leaves.every((leaf) => /^Connection closed$/i.test(leaf.message));
}

type Service =
  | { readonly service: 'redis'; readonly security: RedisSecurity | undefined; readonly where: string }
  | { readonly service: 'kafka'; readonly security: KafkaSecurity | undefined; readonly where: string }
  | { readonly service: 'clickhouse'; readonly security: ClickHouseSecurity | undefined; readonly where: string };

const prefixes = { redis: 'REDIS', kafka: 'KAFKA', clickhouse: 'CLICKHOUSE' } as const;

function hasCa(target: Service): boolean {
  if (target.service === 'clickhouse') return target.security?.tls?.caCert !== undefined;
  return target.security?.tls?.ca !== undefined;
}

function hasClientCertificate(target: Service): boolean {
  if (target.service === 'clickhouse') return target.security?.tls?.cert !== undefined;
  return target.security?.tls?.cert !== undefined;
}

function authenticationMessage(target: Service, reason: string): { variable: string; message: string } {
  if (target.service === 'redis') {
    const security = target.security;
    if (security?.password === undefined) {
      return {
        variable: 'REDIS_PASSWORD',
        message: `the server at ${target.where} requires authentication (${reason}); set REDIS_PASSWORD (and REDIS_USERNAME for an ACL user)`,
      };
    }
    return { variable: security.passwordVariable, message: `authentication failed for user ${security.username ?? 'default'} at ${target.where}` };
  }
  if (target.service === 'kafka') {
    const sasl = target.security?.sasl;
    if (sasl === undefined)
      return {
        variable: 'KAFKA_SECURITY_PROTOCOL',
        message: `the brokers at ${target.where} require SASL authentication; set SASL_SSL or SASL_PLAINTEXT with KAFKA_SASL_*`,
      };
    return { variable: 'KAFKA_SASL_PASSWORD', message: `SASL authentication failed for user ${sasl.username} (${sasl.mechanism}) at ${target.where}` };
  }
  const security = target.security;
  return {
    variable: security?.passwordVariable ?? 'CLICKHOUSE_PASSWORD',
    message: `authentication failed for user ${security?.username ?? 'default'} at ${target.where}`,
  };
}

function explain(target: Service, failure: SecurityFailure): { variable: string; message: string } {
  const prefix = prefixes[target.service];
  const urlVariable = target.service === 'kafka' ? 'KAFKA_SECURITY_PROTOCOL' : `${prefix}_URL`;
  switch (failure.kind) {
    case 'certificate':
      return hasCa(target)
        ? {
            variable: `${prefix}_TLS_CA_FILE`,
            message: `certificate verify failed (${failure.reason}) for ${target.where}: the server certificate is not signed by that CA`,
          }
        : {
            variable: `${prefix}_TLS_CA_FILE`,
            message: `certificate verify failed (${failure.reason}) for ${target.where}: no system CA signed the server certificate; set ${prefix}_TLS_CA_FILE to its CA`,
          };
    case 'hostname':
      return { variable: urlVariable, message: `the server certificate at ${target.where} does not name that host (${failure.reason})` };
    case 'client-certificate':
      return hasClientCertificate(target)
        ? { variable: `${prefix}_TLS_CERT_FILE`, message: `the server at ${target.where} refused the client certificate (${failure.reason})` }
        : {
            variable: `${prefix}_TLS_CERT_FILE`,
            message: `the server at ${target.where} requires a client certificate (${failure.reason}); set ${prefix}_TLS_CERT_FILE and ${prefix}_TLS_KEY_FILE`,
          };
    case 'handshake':
      return { variable: urlVariable, message: `TLS handshake with ${target.where} failed (${failure.reason}): does that port speak TLS?` };
    case 'authentication':
      return authenticationMessage(target, failure.reason);
  }
}

/** Kafka over TLS without a client certificate whose every connection was closed: most likely one was required. */
function unansweredClientCertificate(target: Service, error: unknown): SecurityFailure | undefined {
  if (target.service !== 'kafka' || target.security?.tls === undefined || hasClientCertificate(target)) return undefined;
  return closedEveryTlsConnection(error) ? { kind: 'client-certificate', reason: 'every TLS connection closed by the broker' } : undefined;
}

/**
 * SY_CONFIG_INVALID naming the variable when `error` is a TLS or authentication failure of the
 * service's first connection; undefined otherwise (the caller rethrows the original).
 */
export function explainStartFailure(target: Service, error: unknown): SwitchyardError | undefined {
  const failure = securityFailureOf(error) ?? unansweredClientCertificate(target, error);
  if (failure === undefined) return undefined;
  const { variable, message } = explain(target, failure);
  return new SwitchyardError('SY_CONFIG_INVALID', {
    message: `${variable}: ${message}`,
    details: { variable, service: target.service, reason: failure.reason, where: target.where },
  });
}
