import type { ConnectionOptions as TlsOptions } from 'node:tls';

/**
 * What every Kafka client of one bus shares: who it is, where the brokers are, and how it proves
 * itself to them. Spread into every Producer, Consumer and Admin, so TLS and SASL apply to all.
 */
export interface KafkaConnection {
  readonly clientId: string;
  /** `host:port` of each seed broker. */
  readonly bootstrapBrokers: string[];
  /** How long one connection attempt may take, in ms. */
  readonly connectTimeout: number;
  /** Set for SSL and SASL_SSL. */
  readonly tls?: TlsOptions;
  /** Set for SASL_PLAINTEXT and SASL_SSL. */
  readonly sasl?: { readonly mechanism: 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512'; readonly username: string; readonly password: string };
}

/** KAFKA_SECURITY_PROTOCOL and its material, as src/config/service-security.ts resolves them. */
export interface KafkaConnectionSecurity {
  /** PEM bytes; `tls` present (even empty: the system CAs) means TLS. */
  readonly tls?: { readonly ca?: Buffer; readonly cert?: Buffer; readonly key?: Buffer };
  readonly sasl?: KafkaConnection['sasl'];
}

/** The one builder of a bus's connection settings. */
export function kafkaConnectionOf(clientId: string, brokers: readonly string[], security: KafkaConnectionSecurity | undefined): KafkaConnection {
  const tls = security?.tls;
  return {
    clientId,
    bootstrapBrokers: [...brokers],
    connectTimeout: 3000,
    ...(tls === undefined ? {} : { tls: { ...(tls.ca ? { ca: tls.ca } : {}), ...(tls.cert ? { cert: tls.cert } : {}), ...(tls.key ? { key: tls.key } : {}) } }),
    ...(security?.sasl === undefined ? {} : { sasl: { ...security.sasl } }),
  };
}
