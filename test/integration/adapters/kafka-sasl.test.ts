import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin } from '@platformatic/kafka';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../cli/create-runtime.js';
import { kafkaConnectionOf } from '../../../src/adapters/kafka/kafka-connection.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import { apiRequested } from '../../fixtures/api-requested.js';
import { deleteKafkaNamespace, uniqueNamespace } from './local-services.js';
import { envOf, type SecureServices, secureServices } from './secure-services.js';
import { runtimeStartFailure } from '../../helpers/runtime-start-failure.js';

/**
 * Issue 28: the composition root's Kafka bus over SASL_SSL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and
 * over SSL with a client certificate, against the broker of deploy/local/secure-services.sh; a
 * refused password, an untrusted broker certificate or a missing client certificate stops the start
 * naming the variable (the last one is inferred: under TLS 1.3 the broker's refusal reaches the
 * client only as "Connection closed" on every attempt, see docs/services-tls.md).
 */
describe('Kafka over SASL_SSL and SSL', () => {
  let services: SecureServices;
  const silent = pino({ level: 'silent' });
  const prefixes: string[] = [];

  beforeAll(async () => {
    services = await secureServices();
  });

  afterAll(async () => {
    if (services === undefined) return;
    const env = services.env;
    const admin = new Admin(
      kafkaConnectionOf('sytest-sasl-cleanup', [env['KAFKA_BROKERS']!], {
        tls: { ca: readFileSync(env['KAFKA_TLS_CA_FILE']!) },
        sasl: { mechanism: 'PLAIN', username: env['KAFKA_SASL_USERNAME']!, password: env['KAFKA_SASL_PASSWORD']! },
      }),
    );
    try {
      for (const prefix of prefixes) await deleteKafkaNamespace(admin, prefix);
    } finally {
      await admin.close();
    }
  });

  function config(overrides: Record<string, string | undefined>) {
    const prefix = `${uniqueNamespace('sasl')}.`;
    prefixes.push(prefix);
    return loadConfig({
      ...envOf(services, 'KAFKA_'),
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_PARTITIONS: '1',
      KAFKA_CLIENT_ID: prefix,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sytest-kafka-sasl-')),
      ...overrides,
    });
  }

  /** Publishes one event through the runtime's bus and waits until a subscriber of it has it. */
  async function roundTrip(runtime: Runtime): Promise<void> {
    const sent = apiRequested('m-sasl');
    const received: EventEnvelope[] = [];
    const subscription = await runtime.bus.subscribe({
      group: 'sasl-check',
      topics: ['api'],
      handler: async (batch) => {
        received.push(...batch);
      },
    });
    try {
      await runtime.bus.publish([sent]);
      await subscription.caughtUp();
      expect(received.map((got) => got.id)).toEqual([sent.id]);
      expect(received[0]).toEqual(sent);
    } finally {
      await subscription.close();
    }
  }

  function startFailure(overrides: Record<string, string | undefined>): Promise<SwitchyardError> {
    return runtimeStartFailure(config(overrides), { analytics: false });
  }

  it.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'])('publishes and consumes an event over SASL_SSL with %s', async (mechanism) => {
    const runtime = await createRuntime(config({ KAFKA_SASL_MECHANISM: mechanism }), silent, { analytics: false });
    try {
      expect(runtime.mode.bus).toBe('kafka');
      await roundTrip(runtime);
    } finally {
      await runtime.close();
    }
  });

  it.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'])('stops the start naming KAFKA_SASL_PASSWORD when %s refuses the password', async (mechanism) => {
    const error = await startFailure({ KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_PASSWORD: 'not-the-password-k1' });
    expect(error.code).toBe('SY_CONFIG_INVALID');
    expect(error.message).toBe(`KAFKA_SASL_PASSWORD: SASL authentication failed for user switchyard (${mechanism}) at ${services.env['KAFKA_BROKERS']}`);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain('not-the-password-k1');
  });

  it('stops the start naming KAFKA_TLS_CA_FILE when the broker certificate is not signed by that CA', async () => {
    const error = await startFailure({ KAFKA_TLS_CA_FILE: join(services.tlsDir, 'other-ca.pem') });
    expect(error.message).toMatch(/^KAFKA_TLS_CA_FILE: certificate verify failed \([A-Z_]+\) for 127\.0\.0\.1:\d+/);
  });

  const ssl = (overrides: Record<string, string | undefined>) => ({
    KAFKA_BROKERS: services.kafkaSslBrokers,
    KAFKA_SECURITY_PROTOCOL: 'SSL',
    KAFKA_SASL_MECHANISM: undefined,
    KAFKA_SASL_USERNAME: undefined,
    KAFKA_SASL_PASSWORD: undefined,
    ...overrides,
  });

  it('stops the start naming KAFKA_TLS_CERT_FILE when the SSL listener requires a client certificate and none is set', async () => {
    const error = await startFailure(ssl({}));
    expect(error.message).toBe(
      `KAFKA_TLS_CERT_FILE: the server at ${services.kafkaSslBrokers} requires a client certificate (every TLS connection closed by the broker); set KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE`,
    );
  });

  it('publishes and consumes over SSL with a client certificate (mutual TLS)', async () => {
    const runtime = await createRuntime(
      config(ssl({ KAFKA_TLS_CERT_FILE: join(services.tlsDir, 'client.pem'), KAFKA_TLS_KEY_FILE: join(services.tlsDir, 'client.key') })),
      silent,
      { analytics: false },
    );
    try {
      await roundTrip(runtime);
    } finally {
      await runtime.close();
    }
  });
});
