import { DefaultNeuroLink } from '../../../src/adapters/toolkit/default-neurolink.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProviderDefinition } from '../../../src/generation/provider-definition.js';
import { providerDefinitions } from '../../../src/adapters/llm/provider-registry.js';
import { loadToolkitEnv } from '../../../src/config/load-toolkit-env.js';
import type { ProviderName } from '../../../src/generation/provider-name.js';
import type { ToolDefinition } from '../../../src/generation/tool-definition.js';
import { AIProviderFactory, ConfigurationError, InvalidRequestError, type NeuroLink, UserConfirmationRequiredError } from '../../../src/index.js';
import { ScriptedLanguageModel } from '../../helpers/scripted-language-model.js';

const workDir = mkdtempSync(join(tmpdir(), 'neurolink-unit-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function definitionsWith(clients: Partial<Record<ProviderName, ScriptedLanguageModel>>): Record<ProviderName, ProviderDefinition> {
  const result = { ...providerDefinitions } as Record<ProviderName, ProviderDefinition>;
  for (const [name, client] of Object.entries(clients) as [ProviderName, ScriptedLanguageModel][]) {
    result[name] = { ...providerDefinitions[name], create: () => client };
  }
  return result;
}

const guardedWrite: ToolDefinition = {
  name: 'guardedWrite',
  description: 'writes something that needs confirmation',
  inputSchema: { type: 'object' },
  source: 'built-in',
  requiresConfirmation: true,
  execute: async (input, context) => ({ success: true, input, confirmed: context.confirmedTools?.has('guardedWrite') === true }),
};

function toolkit(env: Record<string, string>, clients: Partial<Record<ProviderName, ScriptedLanguageModel>> = {}, warnings: string[] = []): NeuroLink {
  return new DefaultNeuroLink({
    cwd: workDir,
    env,
    providerDefinitions: definitionsWith(clients),
    builtInTools: [guardedWrite],
    warn: (message) => warnings.push(message),
  });
}

describe('NeuroLink provider selection', () => {
  it('picks DEFAULT_PROVIDER, else the first configured in auto order, offline', async () => {
    const env = { OPENAI_API_KEY: 'sk-1', MISTRAL_API_KEY: 'm-1' };
    expect(await toolkit(env).getBestProvider()).toBe('openai');
    expect(await toolkit({ ...env, DEFAULT_PROVIDER: 'mistral' }).getBestProvider()).toBe('mistral');
    expect(toolkit({ ...env, DEFAULT_PROVIDER: 'mistral' }).getProviderSelection().reason).toBe('DEFAULT_PROVIDER=mistral');
    expect(await toolkit(env).getAvailableProviders()).toEqual(['openai', 'mistral']);
  });

  it('names the variable to set when a forced provider is not configured', async () => {
    const neurolink = toolkit({ OPENAI_API_KEY: 'sk-1' });
    await expect(neurolink.generate({ input: { text: 'x' }, provider: 'huggingface' })).rejects.toThrow(
      'Provider "huggingface" (requested) is not configured: set HUGGINGFACE_API_KEY or HF_TOKEN.',
    );
    expect(() => neurolink.createProvider('azure')).toThrow(/set AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT/);
    expect(() => neurolink.createProvider('azure')).toThrow(ConfigurationError);
  });

  it('says what to set when nothing is configured', async () => {
    await expect(toolkit({}).generate('hi')).rejects.toThrow(
      /No AI provider is configured: set one of OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_AI_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY/,
    );
  });

  it('validates provider names', () => {
    const neurolink = toolkit({});
    expect(neurolink.isValidProvider('claude')).toBe(true);
    expect(neurolink.isValidProvider('openai-compatible')).toBe(true);
    expect(neurolink.isValidProvider('auto')).toBe(false);
    expect(neurolink.isValidProvider('skynet')).toBe(false);
  });

  it('reports provider status from settings only, without calling anyone', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', []);
    const statuses = await toolkit({ OPENAI_API_KEY: 'sk-1', OPENAI_MODEL: 'gpt-4.1' }, { openai }).getProviderStatus();
    expect(statuses.find((status) => status.provider === 'openai')).toEqual({ provider: 'openai', status: 'configured', configured: true, model: 'gpt-4.1' });
    expect(statuses.find((status) => status.provider === 'anthropic')).toMatchObject({ status: 'not-configured', missing: ['ANTHROPIC_API_KEY'] });
    expect(openai.calls).toEqual([]);
  });

  it('probes configured providers only when asked', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [{ text: 'p' }]);
    const statuses = await toolkit({ OPENAI_API_KEY: 'sk-1' }, { openai }).getProviderStatus({ probe: true });
    expect(statuses.find((status) => status.provider === 'openai')).toMatchObject({ status: 'working', authenticated: true });
    expect(openai.calls[0]?.maxTokens).toBe(1);
  });
});

describe('NeuroLink generate', () => {
  it('generates with gen as an alias and falls back across configured providers', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o-mini', [
      { text: 'one' },
      { error: new (await import('../../../src/index.js')).RateLimitError('slow down', 'openai', 1) },
    ]);
    const mistral = new ScriptedLanguageModel('mistral', 'mistral-small', [{ text: 'two' }]);
    const neurolink = toolkit({ OPENAI_API_KEY: 'sk', MISTRAL_API_KEY: 'm' }, { openai, mistral });
    expect((await neurolink.gen('first')).content).toBe('one');
    const second = await neurolink.generate('second');
    expect(second.provider).toBe('mistral');
    expect(second.attempts[0]?.errorCode).toBe('RATE_LIMITED');
  });

  it('warns once about prompt, and not at all when suppressed by env', async () => {
    const warnings: string[] = [];
    const openai = new ScriptedLanguageModel('openai', 'm', [{ text: 'a' }, { text: 'b' }]);
    const neurolink = toolkit({ OPENAI_API_KEY: 'sk' }, { openai }, warnings);
    await neurolink.generate({ prompt: 'old' });
    const legacy = await neurolink.generateText({ prompt: 'old again' });
    expect(legacy.text).toBe('b');
    expect(warnings).toHaveLength(1);
    const silenced: string[] = [];
    const quiet = toolkit(
      { OPENAI_API_KEY: 'sk', SWITCHYARD_SUPPRESS_DEPRECATION: '1' },
      { openai: new ScriptedLanguageModel('openai', 'm', [{ text: 'a' }]) },
      silenced,
    );
    await quiet.generate({ prompt: 'old' });
    expect(silenced).toEqual([]);
    const quietToo = toolkit(
      { OPENAI_API_KEY: 'sk', NEUROLINK_SUPPRESS_DEPRECATION: 'true' },
      { openai: new ScriptedLanguageModel('openai', 'm', [{ text: 'a' }]) },
      silenced,
    );
    await quietToo.generate({ prompt: 'old' });
    expect(silenced).toEqual([]);
  });

  it('streams text through streamText', async () => {
    const openai = new ScriptedLanguageModel('openai', 'm', [{ chunks: ['a', 'b'] }]);
    const pieces: string[] = [];
    for await (const piece of toolkit({ OPENAI_API_KEY: 'sk' }, { openai }).streamText('x')) pieces.push(piece);
    expect(pieces).toEqual(['a', 'b']);
  });

  it('offers custom and built-in tools to the model and runs them', async () => {
    const openai = new ScriptedLanguageModel('openai', 'm', [{ text: 'done', callTools: [{ name: 'double', args: { n: 4 } }] }]);
    const neurolink = toolkit({ OPENAI_API_KEY: 'sk' }, { openai });
    neurolink.registerTool('double', {
      description: 'doubles a number n',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }: { n: number }) => ({ value: n * 2 }),
    });
    const result = await neurolink.generate('double 4');
    expect(openai.calls[0]?.tools?.map((tool) => tool.name)).toEqual(['double', 'guardedWrite']);
    expect(result.toolExecutions[0]).toMatchObject({ name: 'double', input: { n: 4 }, output: { value: 8 } });
  });

  it('rejects the evaluation judge variables when they are malformed', () => {
    expect(() => toolkit({ NEUROLINK_EVALUATION_PROVIDER: 'skynet' })).toThrow(/NEUROLINK_EVALUATION_PROVIDER="skynet"/);
    expect(() => toolkit({ NEUROLINK_EVALUATION_TIMEOUT: 'soon' })).toThrow(/NEUROLINK_EVALUATION_TIMEOUT="soon"/);
    expect(toolkit({ NEUROLINK_EVALUATION_PROVIDER: 'claude', NEUROLINK_EVALUATION_TIMEOUT: '5s' }).settings.evaluation).toEqual({
      provider: 'anthropic',
      timeoutMs: 5000,
      threshold: 7,
    });
  });
});

describe('NeuroLink tools', () => {
  it('registers, lists, executes and unregisters custom tools', async () => {
    const neurolink = toolkit({});
    neurolink.registerTools({
      shout: { description: 'upper-cases a text', parameters: z.object({ text: z.string() }), execute: ({ text }: { text: string }) => text.toUpperCase() },
    });
    neurolink.registerTools([{ name: 'whisper', tool: { description: 'lower-cases a text', execute: () => 'shh' } }]);
    expect([...neurolink.getCustomTools().keys()]).toEqual(['shout', 'whisper']);
    expect(await neurolink.executeTool('shout', { text: 'hi' })).toBe('HI');
    expect(await neurolink.executeTool('shout', { text: 3 })).toMatchObject({
      success: false,
      error: expect.stringMatching(/invalid arguments for shout: text/),
    });
    const listed = await neurolink.getAllAvailableTools();
    expect(listed.map((tool) => [tool.name, tool.category])).toEqual([
      ['guardedWrite', 'built-in'],
      ['shout', 'custom'],
      ['whisper', 'custom'],
    ]);
    expect(neurolink.unregisterTool('shout')).toBe(true);
    expect(neurolink.unregisterTool('shout')).toBe(false);
  });

  it('rejects invalid tool registrations', () => {
    const neurolink = toolkit({});
    expect(() => neurolink.registerTool('x', { description: 'long enough text', execute: () => 1 })).toThrow(InvalidRequestError);
    expect(() => neurolink.registerTool('admin', { description: 'long enough text', execute: () => 1 })).toThrow(/reserved/);
    expect(() => neurolink.registerTool('short', { description: 'tiny', execute: () => 1 })).toThrow(/at least 10 characters/);
    expect(() => neurolink.registerTool('schemaTool', { description: 'long enough text', schema: z.object({}), execute: () => 1 } as never)).toThrow(
      /name its input schema "parameters"/,
    );
  });

  it('requires confirmation for flagged tools', async () => {
    const neurolink = toolkit({});
    await expect(neurolink.executeTool('guardedWrite', {})).rejects.toBeInstanceOf(UserConfirmationRequiredError);
    await expect(neurolink.executeTool('guardedWrite', {})).rejects.toMatchObject({ code: 'USER_CONFIRMATION_REQUIRED' });
    expect(await neurolink.executeTool('guardedWrite', { a: 1 }, { confirm: true })).toEqual({ success: true, input: { a: 1 }, confirmed: true });
    await expect(neurolink.executeTool('nope')).rejects.toThrow(/no tool named "nope"/);
  });
});

describe('AIProviderFactory', () => {
  const registry = {
    getModelConfig: () => undefined,
    getDefaultModel: () => undefined,
    findBestModel: (options: { provider?: string; capability?: string }) =>
      options.capability === 'vision' ? { modelId: 'gpt-4o', provider: options.provider ?? 'openai' } : undefined,
  };

  it('creates providers by name and by options object', async () => {
    const openai = new ScriptedLanguageModel('openai', 'gpt-4o', [{ text: 'seen' }, { text: 'again' }]);
    const neurolink = new DefaultNeuroLink({
      cwd: workDir,
      env: { OPENAI_API_KEY: 'sk' },
      providerDefinitions: definitionsWith({ openai }),
      builtInTools: [],
      modelRegistry: registry,
    });
    const factory = new AIProviderFactory(neurolink);
    const byName = factory.createProvider('gpt', 'gpt-4o');
    expect([byName.provider, byName.model]).toEqual(['openai', 'gpt-4o']);
    expect((await byName.gen('x')).content).toBe('seen');
    const byOptions = factory.createProvider({ capability: 'vision', optimizeFor: 'quality' });
    expect([byOptions.provider, byOptions.model]).toEqual(['openai', 'gpt-4o']);
    expect((await byOptions.generate('y')).content).toBe('again');
    expect(() => factory.createProvider({ capability: 'code' })).toThrow(/no model in the registry matches/);
    const pair = factory.createProviderWithFallback('openai', 'openai');
    expect(Object.keys(pair)).toEqual(['primary', 'fallback']);
    expect(() => factory.createProviderWithFallback('openai', 'anthropic')).toThrow(/set ANTHROPIC_API_KEY/);
  });
});

describe('loadToolkitEnv', () => {
  it('merges <cwd>/.env under the process environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolkit-env-'));
    try {
      writeFileSync(join(dir, '.env'), 'OPENAI_API_KEY=from-file\nMISTRAL_API_KEY="quoted value"\n# comment\n');
      const env = loadToolkitEnv({ cwd: dir, processEnv: { OPENAI_API_KEY: 'from-process' } });
      expect(env['OPENAI_API_KEY']).toBe('from-process');
      expect(env['MISTRAL_API_KEY']).toBe('quoted value');
      expect(loadToolkitEnv({ cwd: join(dir, 'missing'), processEnv: { A: '1' } })).toEqual({ A: '1' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
