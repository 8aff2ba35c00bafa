import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { providerDefinitions } from '../../../src/adapters/llm/provider-registry.js';
import type { ModelCallRequest } from '../../../src/generation/language-model-client.js';
import { SUMMARY_INSTRUCTIONS } from '../../../src/generation/memory/conversation-memory.js';
import type { ProviderDefinition } from '../../../src/generation/provider-definition.js';
import type { ProviderName } from '../../../src/generation/provider-name.js';
import { toolkitReservationUsd } from '../../../src/toolkit/call-reservation.js';
import { ScriptedLanguageModel, type ScriptStep } from '../../helpers/scripted-language-model.js';

/**
 * The budget reservation of a toolkit call counts the whole input it sends (issue 28): the
 * session's remembered history, memory's summarising call, the documents' extracted text — each
 * checked against what the scripted model was actually sent.
 */

const workDir = mkdtempSync(join(tmpdir(), 'call-reservation-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function toolkitWith(steps: readonly ScriptStep[], env: Record<string, string> = {}) {
  const model = new ScriptedLanguageModel('openai', 'gpt-4o-mini', steps);
  const definitions = { ...providerDefinitions, openai: { ...providerDefinitions.openai, create: () => model } } as Record<ProviderName, ProviderDefinition>;
  const toolkit = new DefaultNeuroLink({
    cwd: workDir,
    env: { OPENAI_API_KEY: 'sk-x', ...env },
    providerDefinitions: definitions,
    builtInTools: [],
    warn: () => undefined,
  });
  return { toolkit, model };
}

/** Characters the model was sent: system prompt and every message's text. */
function sentCharacters(request: ModelCallRequest): number {
  const text = (content: unknown) => (typeof content === 'string' ? content : (content as { text?: string }[]).map((part) => part.text ?? '').join(''));
  return (request.system?.length ?? 0) + request.messages.reduce((sum, message) => sum + text((message as { content: unknown }).content).length, 0);
}

const csv = (rows: number) =>
  `data:text/csv;base64,${Buffer.from(['sku,name,price', ...Array.from({ length: rows }, (_, i) => `${i},item ${i},${i}.99`)].join('\n')).toString('base64')}`;
const call = { provider: 'openai', model: 'gpt-4o-mini', maxTokens: 5, disableTools: true } as const;

describe('toolkit call reservation', () => {
  it("counts the documents' extracted text, at least what the model is sent", async () => {
    const { toolkit, model } = toolkitWith([{ text: 'ok' }]);
    const options = { ...call, input: { text: 'Sum the prices.' }, files: [csv(500)] };
    const estimate = await toolkit.estimateInput(options);
    await toolkit.generate(options);
    const sent = sentCharacters(model.calls[0]!);
    expect(sent).toBeGreaterThan(5000);
    expect(estimate.characters).toBeGreaterThanOrEqual(sent);
    expect(estimate.characters).toBeLessThan(sent + 50);
    const withoutFiles = await toolkitReservationUsd(toolkit, { ...call, input: { text: 'Sum the prices.' } });
    expect(await toolkitReservationUsd(toolkit, options)).toBeGreaterThan(withoutFiles + ((sent / 3 - 10) / 1000) * 0.00015 * 0.99);
  });

  it("counts the session's remembered history, scoped by merchant like memory itself", async () => {
    const { toolkit, model } = toolkitWith([{ text: 'first answer' }, { text: 'second answer' }]);
    const session = (text: string, merchantId: string) => ({ ...call, input: { text }, context: { sessionId: 's-1' }, attribution: { merchantId } });
    await toolkit.generate(session('x'.repeat(3000), 'shop-a'));
    const estimate = await toolkit.estimateInput(session('and now?', 'shop-a'));
    expect((await toolkit.estimateInput(session('and now?', 'shop-b'))).characters).toBe('and now?'.length);
    await toolkit.generate(session('and now?', 'shop-a'));
    expect(estimate.characters).toBe(sentCharacters(model.calls[1]!));
    expect(estimate.summaryCall).toBeUndefined();
  });

  it("adds memory's summarising call, exactly as sent, when the history is over its token budget", async () => {
    const env = { NEUROLINK_MEMORY_TOKEN_BUDGET: '20', NEUROLINK_MEMORY_KEEP_RECENT_TURNS: '1', NEUROLINK_MEMORY_SUMMARY_MAX_TOKENS: '40' };
    const { toolkit, model } = toolkitWith([{ text: 'a1'.repeat(30) }, { text: 'a2'.repeat(30) }, { text: 'the summary' }, { text: 'a3' }], env);
    const turn = (text: string) => ({ ...call, input: { text }, context: { sessionId: 'long' } });
    await toolkit.generate(turn('q1'.repeat(30)));
    await toolkit.generate(turn('q2'.repeat(30)));
    const estimate = await toolkit.estimateInput(turn('q3'));
    await toolkit.generate(turn('q3'));
    const summaryRequest = model.calls[2]!;
    expect(summaryRequest.system).toContain(SUMMARY_INSTRUCTIONS);
    expect(estimate.summaryCall).toEqual({ characters: sentCharacters(summaryRequest), maxTokens: 40, model: 'gpt-4o-mini' });
    // The call itself is counted with the summary at its bound (40 tokens), never less than it carried.
    expect(estimate.characters).toBeGreaterThanOrEqual(sentCharacters(model.calls[3]!));
    const withSummary = await toolkitReservationUsd(toolkit, turn('q4'));
    expect(withSummary).toBeGreaterThan(0);
  });

  it('prices a call that names no model at the dearest model it can land on, its fallbacks included', async () => {
    const { toolkit } = toolkitWith([], { ANTHROPIC_API_KEY: 'sk-ant-x' });
    const bare = { input: { text: 'hi' }, maxTokens: 50, disableTools: true } as const;
    const models = toolkit.candidateModels({});
    expect(models.length).toBe(2);
    const each = await Promise.all(
      (['openai', 'anthropic'] as const).map((provider) =>
        toolkitReservationUsd(toolkit, { ...bare, provider, model: toolkit.candidateModels({ provider })[0]! }),
      ),
    );
    expect(Math.min(...each)).toBeGreaterThan(0);
    expect(each[0]).not.toBe(each[1]);
    // No provider: the chain walks both, so the dearer one is held.
    expect(await toolkitReservationUsd(toolkit, bare)).toBe(Math.max(...each));
    // A provider without a model: that provider's default only.
    expect(await toolkitReservationUsd(toolkit, { ...bare, provider: 'openai' })).toBe(each[0]);
  });

  it('reserves nothing for a provider it does not know (the call itself is refused)', async () => {
    const { toolkit } = toolkitWith([]);
    expect(toolkit.candidateModels({ provider: 'no-such-provider' })).toEqual([]);
    expect(await toolkitReservationUsd(toolkit, { input: { text: 'hi' }, provider: 'no-such-provider' })).toBe(0);
  });

  it('counts the definitions of the tools the call offers, as disableTools and context.permissions leave them', async () => {
    const { toolkit } = toolkitWith([]);
    const description = 'Looks an order up by its id and answers its status. '.repeat(20);
    toolkit.registerTool('lookupOrder', { description, execute: () => ({ status: 'shipped' }) });
    const bare = { provider: 'openai', model: 'gpt-4o-mini', input: { text: 'hi' } } as const;
    const none = (await toolkit.estimateInput({ ...bare, disableTools: true })).characters;
    const all = (await toolkit.estimateInput(bare)).characters;
    const customOnly = (await toolkit.estimateInput({ ...bare, context: { permissions: ['custom:*'] } })).characters;
    expect(none).toBe('hi'.length);
    expect(customOnly - none).toBeGreaterThan(description.length);
    expect(customOnly - none).toBeLessThan(description.length + 300);
    expect((await toolkit.estimateInput({ ...bare, context: { permissions: [] } })).characters).toBe(none);
    // builtInTools: [] here, so every tool is the custom one.
    expect(all).toBe(customOnly);
    expect(await toolkitReservationUsd(toolkit, bare)).toBeGreaterThan(await toolkitReservationUsd(toolkit, { ...bare, disableTools: true }));
  });
});
