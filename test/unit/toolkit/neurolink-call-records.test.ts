import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProviderDefinition } from '../../../src/generation/provider-definition.js';
import { providerDefinitions } from '../../../src/adapters/llm/provider-registry.js';
import { createMemoryEventBus } from '../../../src/adapters/memory/memory-event-bus.js';
import type { EventEnvelope } from '../../../src/events/event-envelope.js';
import { partitionKeyOf, topicOf } from '../../../src/events/event-envelope.js';
import { validateEvent } from '../../../src/events/validate-event.js';
import { RateLimitError } from '../../../src/generation/errors/provider-errors.js';
import type { LlmCallRecord } from '../../../src/generation/llm-call-record.js';
import type { ProviderName } from '../../../src/generation/provider-name.js';
import { llmCallPublisher, unattributedMerchant } from '../../../src/generation/publish-llm-calls.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { NeuroLink } from '../../../src/index.js';
import { ScriptedLanguageModel } from '../../helpers/scripted-language-model.js';

const workDir = mkdtempSync(join(tmpdir(), 'neurolink-records-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function definitionsWith(clients: Partial<Record<ProviderName, ScriptedLanguageModel>>): Record<ProviderName, ProviderDefinition> {
  const result = { ...providerDefinitions } as Record<ProviderName, ProviderDefinition>;
  for (const [name, client] of Object.entries(clients) as [ProviderName, ScriptedLanguageModel][]) {
    result[name] = { ...providerDefinitions[name], create: () => client };
  }
  return result;
}

const env = { OPENAI_API_KEY: 'sk-1', ANTHROPIC_API_KEY: 'sk-ant-1' };
const prompt = 'the secret prompt text';
const completion = 'the private completion text';

function toolkit(clients: Partial<Record<ProviderName, ScriptedLanguageModel>>, onCall: (record: LlmCallRecord) => void, warnings: string[] = []): NeuroLink {
  return new DefaultNeuroLink({
    cwd: workDir,
    env,
    providerDefinitions: definitionsWith(clients),
    builtInTools: [],
    onCall,
    warn: (message) => warnings.push(message),
  });
}

describe('NeuroLink onCall', () => {
  it('hands over one record per provider attempt, priced from the model registry, with the attribution given', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ error: new RateLimitError('slow down', 'openai', 20) }]);
    const anthropic = new ScriptedLanguageModel('anthropic', 'claude-3-5-haiku-20241022', [
      { text: completion, usage: { inputTokens: 2000, outputTokens: 300, totalTokens: 2300 } },
    ]);
    const records: LlmCallRecord[] = [];
    const neurolink = toolkit({ openai, anthropic }, (record) => records.push(record));
    const result = await neurolink.generate({
      input: { text: prompt },
      disableTools: true,
      attribution: { merchantId: 'm1', userId: 'u1', requestId: 'req-1', surface: 'http' },
    });
    expect(result.content).toBe(completion);
    expect(records.map((r) => [r.provider, r.outcome, r.errorClass, r.fallbackHops])).toEqual([
      ['openai', 'error', 'RateLimitError', 0],
      ['anthropic', 'success', undefined, 1],
    ]);
    const pricing = neurolink.modelRegistry?.getModelConfig('claude-3-5-haiku-20241022')?.pricing;
    expect(pricing).toBeDefined();
    expect(records[1]?.costUsd).toBeCloseTo((2000 / 1000) * pricing!.input + (300 / 1000) * pricing!.output, 9);
    expect(records[1]).toMatchObject({
      model: 'claude-3-5-haiku-20241022',
      inputTokens: 2000,
      outputTokens: 300,
      attribution: { merchantId: 'm1', userId: 'u1', requestId: 'req-1', surface: 'http' },
    });
    for (const record of records) {
      expect(JSON.stringify(record)).not.toContain(prompt);
      expect(JSON.stringify(record)).not.toContain(completion);
    }
  });

  it('attributes a call made without attribution to the library surface, and records a stream and the judge', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [
      { chunks: ['a', 'b'] },
      { text: 'four' },
      { text: '{"relevance":8,"accuracy":8,"completeness":8,"overall":8,"reasoning":"fine"}' },
    ]);
    const records: LlmCallRecord[] = [];
    const neurolink = toolkit({ openai }, (record) => records.push(record));
    const streamed = await neurolink.stream({ input: { text: prompt }, provider: 'openai', disableTools: true });
    for await (const _ of streamed.stream) void _;
    await neurolink.generate({ input: { text: '2+2?' }, provider: 'openai', disableTools: true, enableEvaluation: true });
    expect(records.map((r) => r.operation)).toEqual(['stream', 'generate', 'evaluation']);
    expect(records.every((r) => r.attribution.surface === 'library')).toBe(true);
    expect(records[0]?.timeToFirstTokenMs).toEqual(expect.any(Number));
    expect(records[1]?.timeToFirstTokenMs).toBeUndefined();
  });

  it('answers the call and warns when onCall throws', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ text: completion }]);
    const warnings: string[] = [];
    const neurolink = toolkit(
      { openai },
      () => {
        throw new Error('recorder down');
      },
      warnings,
    );
    expect((await neurolink.generate({ input: { text: prompt }, disableTools: true })).content).toBe(completion);
    expect(warnings).toEqual([expect.stringContaining('recorder down')]);
  });
});

describe('llmCallPublisher', () => {
  it('publishes each record as a valid llm.call event on the llm topic, keyed by merchant, unattributed ones under the placeholder', async () => {
    const bus = createMemoryEventBus({ logger: silentLogger, validate: validateEvent });
    const seen: EventEnvelope[] = [];
    const subscription = await bus.subscribe({ group: 'unit', topics: ['llm'], handler: async (batch) => void seen.push(...batch) });
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ text: completion }, { text: completion }]);
    const neurolink = toolkit({ openai }, llmCallPublisher(bus, { now: () => 1_767_225_600_000 }));
    await neurolink.generate({ input: { text: prompt }, disableTools: true, attribution: { merchantId: 'm-7', surface: 'http' } });
    await neurolink.generate({ input: { text: prompt }, disableTools: true });
    await subscription.caughtUp();
    expect(seen.map((event) => [event.type, event.merchantId, partitionKeyOf(event), topicOf[event.type], event.occurredAt])).toEqual([
      ['llm.call', 'm-7', 'm-7', 'llm', 1_767_225_600_000],
      ['llm.call', unattributedMerchant, unattributedMerchant, 'llm', 1_767_225_600_000],
    ]);
    expect(seen[1]?.payload).toMatchObject({ surface: 'library', provider: 'openai', outcome: 'success', requestId: null });
    for (const event of seen) {
      expect(() => validateEvent(event)).not.toThrow();
      expect(JSON.stringify(event)).not.toContain(prompt);
      expect(JSON.stringify(event)).not.toContain(completion);
    }
    await subscription.close();
    await bus.close();
  });
});
