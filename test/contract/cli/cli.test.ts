import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream, chatError } from '../../fixtures/providers/openai-wire.js';
import { echoServerPath } from '../../integration/mcp/mcp-test-helpers.js';
import { cliWorkDir, expectGolden, runSwitchyard, mcpWorkDir, removeCliWorkDirs } from '../../helpers/cli-harness.js';

function answer(request: RecordedRequest) {
  const body = request.body as { model: string; stream?: boolean; messages: { role: string; content: unknown }[]; response_format?: unknown };
  const text = JSON.stringify(body.messages.at(-1)?.content ?? '');
  if (text.includes('unauthorized')) return chatError('unauthorized');
  if (text.includes('overloaded')) return chatError('server-error');
  if (body.response_format !== undefined) return chatCompletion({ model: body.model, content: '{"answer":4}' });
  if (body.stream === true) return chatCompletionStream({ model: body.model, deltas: ['Two ', 'plus ', 'two ', 'is ', 'four.'] });
  return chatCompletion({ model: body.model, content: `echo: ${text.slice(1, -1)}` });
}

let provider: FakeHttpServer;
let providerEnv: Record<string, string>;

afterAll(removeCliWorkDirs);

beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
  providerEnv = { OPENAI_API_KEY: 'sk-cli-test', OPENAI_BASE_URL: `${provider.url}/v1` };
});
afterAll(async () => provider.close());

describe('switchyard (commands, formats, exit codes)', () => {
  describe('help and usage', () => {
    const commands = [
      [],
      ['generate'],
      ['stream'],
      ['models'],
      ['models', 'list'],
      ['models', 'search'],
      ['models', 'best'],
      ['models', 'resolve'],
      ['models', 'serve'],
      ['mcp'],
      ['mcp', 'discover'],
      ['mcp', 'list'],
      ['mcp', 'install'],
      ['mcp', 'add'],
      ['mcp', 'remove'],
      ['mcp', 'test'],
      ['mcp', 'tools'],
      ['mcp', 'execute'],
      ['mcp', 'config'],
      ['batch'],
      ['batch', 'submit'],
      ['batch', 'status'],
      ['batch', 'results'],
      ['batch', 'cancel'],
      ['status'],
      ['serve'],
      ['worker'],
      ['gateway'],
      ['gateway', 'groups'],
      ['gateway', 'groups', 'list'],
      ['gateway', 'groups', 'show'],
      ['gateway', 'groups', 'set'],
      ['gateway', 'groups', 'delete'],
    ];
    it.each(commands.map((command) => [command.join(' ') || '(top)', command]))('%s has --help (exit 0)', async (_name, command) => {
      const result = await runSwitchyard([...(command as string[]), '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: switchyard/);
    });

    it('answers a bare command with the usage and exit 2, an unknown command or option with exit 2', async () => {
      expect((await runSwitchyard([])).code).toBe(2);
      const unknown = await runSwitchyard(['frobnicate']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain("unknown command 'frobnicate'");
      const badOption = await runSwitchyard(['models', 'list', '--colour']);
      expect(badOption.code).toBe(2);
      expect(badOption.stderr).toContain("unknown option '--colour'");
      const badFormat = await runSwitchyard(['models', 'list', '--format', 'xml']);
      expect(badFormat.code).toBe(2);
      expect(badFormat.stderr).toContain('--format must be one of table, json, yaml');
    });
  });

  describe('generate / gen / stream', () => {
    it('streams the answer of the argument text to standard output', async () => {
      const result = await runSwitchyard(['generate', 'What', 'is', '2+2?', '--disable-tools'], { env: providerEnv });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('Two plus two is four.\n');
      expect(result.stderr).toBe('');
    });

    it('reads the prompt from standard input and passes the flags to the provider', async () => {
      const before = provider.requests.length;
      const result = await runSwitchyard(['gen', '--temperature', '0.1', '--max-tokens', '64', '--system', 'be brief', '--disable-tools', '--format', 'json'], {
        env: providerEnv,
        stdin: 'hello from a pipe\n',
      });
      expect(result.code, result.stderr).toBe(0);
      const output = JSON.parse(result.stdout) as { content: string; provider: string; usage: { totalTokens: number } };
      expect(output).toMatchObject({ content: 'echo: hello from a pipe', provider: 'openai' });
      const sent = provider.requests[before]?.body as { temperature: number; messages: { role: string; content: string }[]; tools?: unknown };
      expect(sent.temperature).toBe(0.1);
      expect(sent.messages[0]).toMatchObject({ role: 'system', content: 'be brief' });
      expect(sent.tools).toBeUndefined();
    });

    it('answers a --schema file with the validated object', async () => {
      const cwd = cliWorkDir();
      writeFileSync(join(cwd, 'answer.json'), JSON.stringify({ type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] }));
      const result = await runSwitchyard(['generate', 'two plus two', '--schema', 'answer.json', '--disable-tools'], { env: providerEnv, cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ answer: 4 });
    });

    it('picks the model with --capability and --optimize-cost from the registry', async () => {
      const before = provider.requests.length;
      const result = await runSwitchyard(
        ['gen', 'describe', '--capability', 'vision', '--optimize-cost', '--provider', 'openai', '--disable-tools', '--format', 'json'],
        { env: providerEnv },
      );
      expect(result.code, result.stderr).toBe(0);
      const model = (provider.requests[before]!.body as { model: string }).model;
      const best = await runSwitchyard(['models', 'best', '--capability', 'vision', '--optimize-for', 'cost', '--provider', 'openai', '--format', 'json']);
      expect(model).toBe((JSON.parse(best.stdout) as { modelId: string }).modelId);
    });

    it('exits 2 without a prompt, 2 for a malformed option, 3 without credentials or with refused ones, 4 when the provider fails', async () => {
      const none = await runSwitchyard(['generate'], { env: providerEnv, stdin: '' });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('no prompt');
      const badTemperature = await runSwitchyard(['generate', 'x', '--temperature', 'warm'], { env: providerEnv });
      expect(badTemperature.code).toBe(2);
      const outOfRange = await runSwitchyard(['generate', 'x', '--temperature', '7'], { env: providerEnv });
      expect(outOfRange.code).toBe(2);
      expect(outOfRange.stderr).toContain('temperature');
      const noKey = await runSwitchyard(['generate', 'x', '--provider', 'anthropic'], { env: providerEnv });
      expect(noKey.code).toBe(3);
      expect(noKey.stderr).toContain('ANTHROPIC_API_KEY');
      const refused = await runSwitchyard(['generate', 'unauthorized please', '--provider', 'openai', '--disable-tools'], { env: providerEnv });
      expect(refused.code).toBe(3);
      const failing = await runSwitchyard(['generate', 'overloaded now', '--provider', 'openai', '--disable-tools', '--format', 'json'], { env: providerEnv });
      expect(failing.code).toBe(4);
    });

    it('writes no spinner escape codes when standard error is not a terminal, and none with --quiet on one', async () => {
      const piped = await runSwitchyard(['stream', 'hi', '--disable-tools'], { env: providerEnv });
      expect(piped.stderr).not.toContain('\u001b');
      expect(piped.stderr).not.toContain('\r');
      const quiet = await runSwitchyard(['gen', 'hi', '--disable-tools', '--quiet', '--format', 'json'], { env: providerEnv, tty: true });
      expect(quiet.stderr).toBe('');
    });
  });

  describe('models', () => {
    it('lists the registry as a table, json and yaml (golden)', async () => {
      const table = await runSwitchyard(['models', 'list', '--provider', 'anthropic']);
      expect(table.code).toBe(0);
      expectGolden('models-list-anthropic.table.txt', table.stdout);
      const json = await runSwitchyard(['models', 'list', '--provider', 'anthropic', '--format', 'json']);
      expectGolden('models-list-anthropic.json', json.stdout);
      const yaml = await runSwitchyard(['models', 'list', '--provider', 'anthropic', '--format', 'yaml']);
      expectGolden('models-list-anthropic.yaml', yaml.stdout);
      expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    });

    it('searches by capability and price, resolves aliases, and refuses what names nothing', async () => {
      const search = await runSwitchyard(['models', 'search', '--capability', 'vision', '--max-price', '0.001', '--format', 'json']);
      const found = JSON.parse(search.stdout) as { capabilities: string[]; pricing: { input: number; output: number } }[];
      expect(found.length).toBeGreaterThan(0);
      for (const model of found) {
        expect(model.capabilities).toContain('vision');
        expect((model.pricing.input + model.pricing.output) / 2).toBeLessThanOrEqual(0.001);
      }
      const resolved = await runSwitchyard(['models', 'resolve', 'cheapest', '--format', 'yaml']);
      expect(resolved.code, resolved.stderr).toBe(0);
      expectGolden('models-resolve-cheapest.yaml', resolved.stdout);
      const unknown = await runSwitchyard(['models', 'resolve', 'no-such-model']);
      expect(unknown.code).toBe(2);
      expect((await runSwitchyard(['models', 'search', '--max-price', 'cheap'])).code).toBe(2);
    });
  });

  describe('status', () => {
    it('reports providers from settings (golden table and yaml), without calling them', async () => {
      const before = provider.requests.length;
      const env = { OPENAI_API_KEY: 'sk-status', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
      const table = await runSwitchyard(['status'], { env });
      expect(table.code).toBe(0);
      expectGolden('status.table.txt', table.stdout);
      const yaml = await runSwitchyard(['status', '--format', 'yaml'], { env });
      expect(parseYaml(yaml.stdout)).toMatchObject({ bestProvider: 'openai' });
      expect(provider.requests.length).toBe(before);
    });
  });

  describe('mcp', () => {
    it('adds, lists, tests, lists tools of, executes on and removes a real stdio server, persisting .mcp-config.json', async () => {
      const cwd = mcpWorkDir();
      const added = await runSwitchyard(['mcp', 'add', 'echo', process.execPath, echoServerPath], { cwd });
      expect(added.code, added.stderr).toBe(0);
      const config = JSON.parse(readFileSync(join(cwd, '.mcp-config.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
      expect(config.mcpServers['echo']).toMatchObject({ command: process.execPath, args: [echoServerPath] });

      const listed = await runSwitchyard(['mcp', 'list', '--format', 'json'], { cwd });
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: 'echo', transport: 'stdio' })]);
      const tested = await runSwitchyard(['mcp', 'test', 'echo', '--format', 'json'], { cwd });
      expect(tested.code, tested.stderr).toBe(0);
      expect(JSON.parse(tested.stdout)).toEqual([expect.objectContaining({ id: 'echo', ok: true })]);
      const tools = await runSwitchyard(['mcp', 'tools', 'echo', '--format', 'json'], { cwd });
      const names = (JSON.parse(tools.stdout) as { name: string }[]).map((tool) => tool.name);
      expect(names).toContain('echo');
      const executed = await runSwitchyard(['mcp', 'execute', 'echo', 'echo', '--params', '{"text":"ping"}', '--format', 'json'], { cwd });
      expect(executed.code, executed.stderr).toBe(0);
      expect(executed.stdout).toContain('ping');

      expect((await runSwitchyard(['mcp', 'remove', 'echo'], { cwd })).code).toBe(0);
      expect(JSON.parse(readFileSync(join(cwd, '.mcp-config.json'), 'utf8'))).toMatchObject({ mcpServers: {} });
      expect((await runSwitchyard(['mcp', 'remove', 'echo'], { cwd })).code).toBe(2);
    });

    it('installs a known package as an argument vector, refuses unknown ones and bad JSON', async () => {
      const cwd = cliWorkDir();
      const installed = await runSwitchyard(['mcp', 'install', 'filesystem', '--root', '/srv/data; rm -rf /'], { cwd });
      expect(installed.code, installed.stderr).toBe(0);
      const config = JSON.parse(readFileSync(join(cwd, '.mcp-config.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
      // The hostile root stays one argument: nothing is ever handed to a shell.
      expect(config.mcpServers['filesystem']).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/data; rm -rf /'] });
      expect((await runSwitchyard(['mcp', 'install', 'nonsense'], { cwd })).code).toBe(2);
      expect((await runSwitchyard(['mcp', 'add', 'x', 'node', '--env', '{oops'], { cwd })).code).toBe(2);
      expect((await runSwitchyard(['mcp', 'add', 'bad id!', 'node'], { cwd })).code).toBe(3);
      const shown = await runSwitchyard(['mcp', 'config', '--format', 'yaml'], { cwd });
      expect(parseYaml(shown.stdout)).toMatchObject({ exists: true, servers: { filesystem: expect.any(Object) } });
    });

    it('discovers servers of editor configs without connecting them', async () => {
      const cwd = cliWorkDir();
      mkdirSync(join(cwd, '.cursor'), { recursive: true });
      writeFileSync(join(cwd, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'cursor-echo': { command: process.execPath, args: [echoServerPath] } } }));
      const result = await runSwitchyard(['mcp', 'discover', '--format', 'json'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as { servers: { id: string; tool: string }[] };
      expect(report.servers).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'cursor-echo', tool: 'cursor' })]));
    });
  });

  describe('gateway groups', () => {
    it('sets, lists, shows and deletes a route group on the embedded store, validated like the HTTP route', async () => {
      const cwd = cliWorkDir();
      writeFileSync(
        join(cwd, 'group.json'),
        JSON.stringify({
          candidates: [
            { provider: 'openai', model: 'gpt-4o-mini', weight: 2 },
            { provider: 'claude', model: 'claude-3-haiku' },
          ],
          maxHops: 2,
        }),
      );
      writeFileSync(join(cwd, 'bad.json'), JSON.stringify({ candidates: [{ provider: 'nobody', model: 'x' }] }));
      const set = await runSwitchyard(['gateway', 'groups', 'set', 'chat', 'group.json', '--merchant', 'cli-shop', '--format', 'json'], { cwd });
      expect(set.code, set.stderr).toBe(0);
      expect(JSON.parse(set.stdout)).toMatchObject({ name: 'chat', maxHops: 2, candidates: [{ provider: 'openai' }, { provider: 'anthropic' }] });
      const bad = await runSwitchyard(['gateway', 'groups', 'set', 'other', 'bad.json', '--merchant', 'cli-shop'], { cwd });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('candidates[0].provider names no provider kind');
      const listed = await runSwitchyard(['gateway', 'groups', 'list', '--merchant', 'cli-shop'], { cwd });
      expect(listed.stdout).toMatch(/^name\s+candidates/);
      expect(listed.stdout).toContain('openai/gpt-4o-mini, anthropic/claude-3-haiku');
      expect(JSON.parse((await runSwitchyard(['gateway', 'groups', 'list', '--merchant', 'another-shop', '--format', 'json'], { cwd })).stdout)).toEqual([]);
      expect((await runSwitchyard(['gateway', 'groups', 'show', 'chat', '--merchant', 'cli-shop', '--format', 'yaml'], { cwd })).stdout).toContain(
        'name: chat',
      );
      expect((await runSwitchyard(['gateway', 'groups', 'delete', 'chat', '--merchant', 'cli-shop'], { cwd })).code).toBe(0);
      expect((await runSwitchyard(['gateway', 'groups', 'delete', 'chat', '--merchant', 'cli-shop'], { cwd })).code).toBe(2);
    });
  });

  describe('batch', () => {
    it('submits prompts from a file in embedded mode, waits, and reads status and results', async () => {
      const cwd = cliWorkDir();
      writeFileSync(join(cwd, 'prompts.txt'), 'first prompt\n\nsecond prompt\n');
      const env = { ...providerEnv, BATCH_BACKOFF_MS: '10' };
      const submitted = await runSwitchyard(['batch', 'submit', 'prompts.txt', '--provider', 'openai', '--format', 'json'], { cwd, env });
      expect(submitted.code, submitted.stderr).toBe(0);
      const batch = JSON.parse(submitted.stdout) as { batchId: string; total: number; succeeded: number; status: string };
      expect(batch).toMatchObject({ total: 2, succeeded: 2, status: 'completed' });
      const status = await runSwitchyard(['batch', 'status', batch.batchId, '--format', 'yaml'], { cwd, env });
      expect(parseYaml(status.stdout)).toMatchObject({ batchId: batch.batchId, succeeded: 2 });
      const results = await runSwitchyard(['batch', 'results', batch.batchId, '--format', 'json'], { cwd, env });
      const page = JSON.parse(results.stdout) as { items: { index: number; content: string }[] };
      expect(page.items.map((item) => item.content)).toEqual(['echo: first prompt', 'echo: second prompt']);
      const table = await runSwitchyard(['batch', 'results', batch.batchId], { cwd, env });
      expect(table.stdout).toMatch(/^index\s+status\s+answer\n/);
      expect((await runSwitchyard(['batch', 'status', 'no-such-batch'], { cwd, env })).code).toBe(2);
      expect((await runSwitchyard(['batch', 'submit', 'missing.txt'], { cwd, env })).code).toBe(2);
    });
  });
});
