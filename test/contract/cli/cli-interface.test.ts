import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CliContext } from '../../../cli/cli-context.js';
import { buildProgram } from '../../../cli/program.js';
import type { Command } from 'commander';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../../fixtures/providers/openai-wire.js';
import { echoServerPath } from '../../integration/mcp/mcp-test-helpers.js';
import { cliWorkDir, expectGolden, runSwitchyard, mcpWorkDir, removeCliWorkDirs } from '../../helpers/cli-harness.js';

// Issue 26, CLI points: the documented flags in both spellings, .mcp-config.json's tools for
// generate, the config / provider / models compare|stats commands, batch cancel on a finished
// batch, the "no provider" message, and help and README listing every command and flag.

interface ChatBody {
  model: string;
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

/** A fake OpenAI: calls the MCP `echo` tool when it is offered and asked for, then reports what it returned. */
function answer(request: RecordedRequest) {
  const body = request.body as ChatBody;
  const last = body.messages.at(-1);
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  const reply = (content: string) =>
    body.stream === true ? chatCompletionStream({ model: body.model, deltas: [content] }) : chatCompletion({ model: body.model, content });
  if (last?.role === 'tool') return reply(`tool said: ${text}`);
  const offered = (body.tools ?? []).map((tool) => tool.function.name);
  if (text.includes('use the echo tool') && offered.includes('echo')) {
    const toolCalls = [{ id: 'call_echo_1', name: 'echo', arguments: { text: 'from-mcp' } }];
    return body.stream === true ? chatCompletionStream({ model: body.model, toolCalls }) : chatCompletion({ model: body.model, toolCalls });
  }
  return reply(`echo: ${text} (tools offered: ${offered.length})`);
}

let provider: FakeHttpServer;
let hanging: FakeHttpServer;
let release: () => void = () => undefined;
let providerEnv: Record<string, string>;

afterAll(removeCliWorkDirs);

beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // A provider that accepts the request and never answers (until the file ends): probes must not wait for it.
  hanging = await startFakeHttpServer(async () => {
    await held;
    return { status: 503 };
  });
  providerEnv = { OPENAI_API_KEY: 'sk-cli-interface', OPENAI_BASE_URL: `${provider.url}/v1` };
});
afterAll(async () => {
  release();
  await provider.close();
  await hanging.close();
});

function commandTree(): Command {
  const io = {
    stdout: { write: () => undefined },
    stderr: { write: () => undefined },
    readStdin: async () => '',
    stdinIsTty: true,
    stderrIsTty: false,
    env: {},
    cwd: cliWorkDir(),
  };
  return buildProgram(new CliContext(io));
}

function leafCommands(command: Command, path: readonly string[] = []): { path: string[]; command: Command }[] {
  return command.commands.flatMap((sub) =>
    sub.commands.length === 0 ? [{ path: [...path, sub.name()], command: sub }] : leafCommands(sub, [...path, sub.name()]),
  );
}

describe('switchyard: the documented interface (issue 26)', () => {
  describe('generate flags', () => {
    it('takes every flag the interface documents for generate', async () => {
      const help = await runSwitchyard(['generate', '--help']);
      for (const flag of [
        '--provider',
        '--model',
        '--debug',
        '--temperature',
        '--max-tokens',
        '--disable-tools',
        '--capability',
        '--optimize-cost',
        '--timeout',
        '--prompt',
      ])
        expect(help.stdout, flag).toContain(flag);
      const result = await runSwitchyard(['generate', '--prompt', 'hello there', '--debug', '--disable-tools', '--provider', 'openai', '--timeout', '30s'], {
        env: providerEnv,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('echo: hello there (tools offered: 0)\n');
      expect(result.stderr).toContain('debug: provider openai (requested explicitly)');
      expect(result.stderr).toContain('debug: tools: off (--disable-tools)');
      expect(result.stderr).toMatch(/debug: answered by openai\/\S+ in \d+ ms, \d+ tokens, finish reason stop/);
    });

    it('takes the camelCase spellings, writing the same options as the kebab-case ones', async () => {
      const before = provider.requests.length;
      const result = await runSwitchyard(
        ['gen', '--prompt', 'camel', '--maxTokens', '64', '--disableTools', '--enableAnalytics', '--context', '{"team":"cli"}', '--format', 'json'],
        { env: providerEnv },
      );
      expect(result.code, result.stderr).toBe(0);
      const output = JSON.parse(result.stdout) as { content: string; analytics: { context: unknown } };
      expect(output.content).toBe('echo: camel (tools offered: 0)');
      expect(output.analytics.context).toEqual({ team: 'cli' });
      const sent = provider.requests[before]?.body as ChatBody;
      expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(64);
      expect(sent.tools).toBeUndefined();
      const search = await runSwitchyard(['models', 'search', '--maxPrice', '0.001', '--excludeDeprecated', '--format', 'json']);
      expect(search.code, search.stderr).toBe(0);
      const kebab = await runSwitchyard(['models', 'search', '--max-price', '0.001', '--exclude-deprecated', '--format', 'json']);
      expect(search.stdout).toBe(kebab.stdout);
    });

    it('gives every kebab-case option of every command a camelCase twin', () => {
      for (const { path, command } of leafCommands(commandTree())) {
        const longs = command.options.map((option) => option.long);
        for (const option of command.options) {
          if (option.hidden || option.long === undefined || option.long.startsWith('--no-') || !/^--[a-z0-9]+-/.test(option.long)) continue;
          const twin = `--${option.long.slice(2).replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase())}`;
          expect(longs, `${path.join(' ')} ${option.long}`).toContain(twin);
        }
      }
    });

    it('refuses a prompt given twice or an invalid --context (exit 2), and says when --model makes --capability moot', async () => {
      const twice = await runSwitchyard(['generate', 'words', '--prompt', 'and a flag'], { env: providerEnv });
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('give the prompt once');
      const both = await runSwitchyard(['generate', 'x', '--model', 'gpt-4o-mini', '--capability', 'vision', '--optimizeCost', '--disable-tools'], {
        env: providerEnv,
      });
      expect(both.code, both.stderr).toBe(0);
      expect(both.stderr).toContain('note: --capability and --optimize-cost not used: --model gpt-4o-mini names the model');
      const context = await runSwitchyard(['generate', 'x', '--context', '[1]'], { env: providerEnv });
      expect(context.code).toBe(2);
      expect(context.stderr).toContain('--context must be a JSON object');
    });
  });

  describe('generate and MCP servers', () => {
    it('offers the tools of .mcp-config.json (the servers the mcp commands manage) and says so with --debug', async () => {
      const cwd = mcpWorkDir();
      expect((await runSwitchyard(['mcp', 'add', 'echo', process.execPath, echoServerPath], { cwd })).code).toBe(0);
      const listed = await runSwitchyard(['mcp', 'list', '--format', 'json'], { cwd });
      expect((JSON.parse(listed.stdout) as { id: string }[]).map((server) => server.id)).toEqual(['echo']);

      const result = await runSwitchyard(['generate', 'please use the echo tool', '--debug', '--provider', 'openai'], { cwd, env: providerEnv });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('tool said:');
      expect(result.stdout).toContain('from-mcp');
      expect(result.stderr).toContain(`debug: MCP servers from ${join(cwd, '.mcp-config.json')}: loaded echo`);
      expect(result.stderr).toMatch(/debug: tools offered: \d+ \(\d+ built-in, \d+ MCP: [^)]*\becho\b/);
      expect(result.stderr).toContain('tools used: echo');

      const streamed = await runSwitchyard(['stream', 'please use the echo tool', '--provider', 'openai'], { cwd, env: providerEnv });
      expect(streamed.code, streamed.stderr).toBe(0);
      expect(streamed.stdout).toContain('from-mcp');
    });

    it('reports a server that fails to start and still answers; a malformed file is a configuration error (exit 3)', async () => {
      const cwd = cliWorkDir();
      writeFileSync(join(cwd, '.mcp-config.json'), JSON.stringify({ mcpServers: { broken: { command: join(cwd, 'no-such-program') } } }));
      const result = await runSwitchyard(['generate', 'hi', '--debug', '--provider', 'openai'], { cwd, env: providerEnv });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/debug: MCP servers from .*: loaded none; failed broken \(/);
      writeFileSync(join(cwd, '.mcp-config.json'), '{ not json');
      const malformed = await runSwitchyard(['generate', 'hi', '--provider', 'openai'], { cwd, env: providerEnv });
      expect(malformed.code).toBe(3);
      expect(malformed.stderr).toContain('.mcp-config.json');
      // Tools off: no server is started, so the malformed file does not matter.
      expect((await runSwitchyard(['generate', 'hi', '--provider', 'openai', '--disable-tools'], { cwd, env: providerEnv })).code).toBe(0);
    });
  });

  describe('config', () => {
    it('shows the effective settings with every secret redacted', async () => {
      const cwd = cliWorkDir();
      writeFileSync(join(cwd, '.env'), 'ANTHROPIC_API_KEY=sk-ant-from-dotenv-123\n');
      const env = {
        OPENAI_API_KEY: 'sk-openai-secret-456',
        ADMIN_SECRET: 'admin-secret-value-789-abcdefghijklmnopqrstuvwxyz',
        REDIS_URL: 'redis://user:redis-pass-321@127.0.0.1:6379',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        PORT: '9191',
        FILE_STORE: 's3',
        S3_ACCESS_KEY_ID: 'AKIDSHOWN',
        S3_SECRET_ACCESS_KEY: 's3-secret-654',
        S3_SESSION_TOKEN: 's3-session-987',
      };
      const shown = await runSwitchyard(['config', 'show', '--format', 'json'], { cwd, env });
      expect(shown.code, shown.stderr).toBe(0);
      for (const secret of ['sk-ant-from-dotenv-123', 'sk-openai-secret-456', 'admin-secret-value-789', 'redis-pass-321', 's3-secret-654', 's3-session-987'])
        expect(shown.stdout).not.toContain(secret);
      const config = JSON.parse(shown.stdout) as {
        service: Record<string, unknown>;
        toolkit: Record<string, unknown>;
        providers: Record<string, string>;
        files: { env: { exists: boolean } };
      };
      expect(config.service).toMatchObject({
        PORT: 9191,
        ADMIN_SECRET: '[redacted]',
        ADMIN_SECRET_HEADER: 'x-admin-secret',
        REDIS_URL: 'redis://user:redacted@127.0.0.1:6379',
        FILE_STORE: 's3',
        S3_ACCESS_KEY_ID: 'AKIDSHOWN',
        S3_SECRET_ACCESS_KEY: '[redacted]',
        S3_SESSION_TOKEN: '[redacted]',
      });
      expect(config.toolkit).toMatchObject({ OPENAI_API_KEY: '[redacted]', ANTHROPIC_API_KEY: '[redacted]', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
      expect(config.providers).toMatchObject({ openai: 'configured', anthropic: 'configured' });
      expect(config.files.env.exists).toBe(true);
    });

    it('validates: exit 0 when valid, exit 3 listing every error', async () => {
      const cwd = cliWorkDir();
      const valid = await runSwitchyard(['config', 'validate'], { cwd, env: providerEnv });
      expect(valid.code, valid.stdout).toBe(0);
      expect(valid.stdout).toContain('configuration is valid');
      writeFileSync(join(cwd, '.mcp-config.json'), JSON.stringify({ mcpServers: { 'bad id!': { command: 'node' } } }));
      const invalid = await runSwitchyard(['config', 'validate', '--format', 'json'], {
        cwd,
        env: { ...providerEnv, PORT: 'eighty', DEFAULT_PROVIDER: 'nobody' },
      });
      expect(invalid.code).toBe(3);
      const report = JSON.parse(invalid.stdout) as { valid: boolean; errors: string[] };
      expect(report.valid).toBe(false);
      expect(report.errors.join('\n')).toMatch(/PORT/);
      expect(report.errors.join('\n')).toContain('DEFAULT_PROVIDER="nobody"');
      expect(report.errors.join('\n')).toContain('bad id!');
    });

    it('init writes a starter .env, refuses to overwrite it without --force', async () => {
      const cwd = cliWorkDir();
      const first = await runSwitchyard(['config', 'init'], { cwd });
      expect(first.code, first.stderr).toBe(0);
      const written = readFileSync(join(cwd, '.env'), 'utf8');
      expect(written).toContain('# OPENAI_API_KEY=');
      expect(written).toContain('# AWS_ACCESS_KEY_ID=');
      writeFileSync(join(cwd, '.env'), 'OPENAI_API_KEY=mine\n');
      const again = await runSwitchyard(['config', 'init'], { cwd });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('--force');
      expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe('OPENAI_API_KEY=mine\n');
      expect((await runSwitchyard(['config', 'init', '--force'], { cwd })).code).toBe(0);
      expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe(written);
    });
  });

  describe('provider status', () => {
    it('lists configured providers and probes each with one bounded 1-token call', async () => {
      const before = provider.requests.length;
      const ok = await runSwitchyard(['provider', 'status', '--format', 'json'], { env: providerEnv });
      expect(ok.code, ok.stderr).toBe(0);
      const report = JSON.parse(ok.stdout) as { probed: boolean; providers: { provider: string; status: string; configured: boolean }[] };
      expect(report.probed).toBe(true);
      expect(report.providers.find((entry) => entry.provider === 'openai')).toMatchObject({ status: 'working', configured: true });
      expect(report.providers.find((entry) => entry.provider === 'anthropic')).toMatchObject({ status: 'not-configured', configured: false });
      const probe = provider.requests.slice(before).map((request) => request.body as ChatBody);
      expect(probe).toHaveLength(1);
      expect(probe[0]?.max_tokens ?? probe[0]?.max_completion_tokens).toBe(1);

      const settingsOnly = await runSwitchyard(['provider', 'status', '--no-probe', '--format', 'json'], { env: providerEnv });
      expect(settingsOnly.code).toBe(0);
      expect(provider.requests.length).toBe(before + 1);

      const started = performance.now();
      const stuck = await runSwitchyard(['provider', 'status', '--timeout', '300'], {
        env: { ...providerEnv, OPENAI_COMPATIBLE_BASE_URL: `${hanging.url}/v1`, OPENAI_COMPATIBLE_API_KEY: 'k' },
      });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(stuck.code).toBe(4);
      expect(stuck.stdout).toMatch(/openai-compatible\s+true\s+failed/);
      expect((await runSwitchyard(['provider', 'status', '--timeout', 'forever'])).code).toBe(2);
    });
  });

  describe('models compare and stats', () => {
    it('compares models side by side (golden) and refuses unknown or single names', async () => {
      const table = await runSwitchyard(['models', 'compare', 'gpt-4o-mini', 'claude-latest', 'fastest']);
      expect(table.code, table.stderr).toBe(0);
      expectGolden('models-compare.table.txt', table.stdout);
      const json = JSON.parse((await runSwitchyard(['models', 'compare', 'gpt-4o-mini', 'claude-latest', '--format', 'json'])).stdout) as {
        models: { provider: string }[];
        cheapest: string;
      };
      expect(json.models.map((model) => model.provider)).toEqual(['openai', 'anthropic']);
      expect(json.cheapest).toBe('gpt-4o-mini');
      expect((await runSwitchyard(['models', 'compare', 'gpt-4o-mini', 'no-such-model'])).code).toBe(2);
      expect((await runSwitchyard(['models', 'compare', 'gpt-4o-mini'])).code).toBe(2);
    });

    it('summarises the registry (golden), consistent with models list', async () => {
      const table = await runSwitchyard(['models', 'stats']);
      expect(table.code, table.stderr).toBe(0);
      expectGolden('models-stats.table.txt', table.stdout);
      const stats = parseYaml((await runSwitchyard(['models', 'stats', '--format', 'yaml'])).stdout) as {
        models: number;
        perProvider: { provider: string; models: number }[];
        capabilities: Record<string, number>;
      };
      const all = JSON.parse((await runSwitchyard(['models', 'list', '--format', 'json'])).stdout) as { provider: string; capabilities: string[] }[];
      expect(stats.models).toBe(all.length);
      expect(stats.perProvider.reduce((sum, entry) => sum + entry.models, 0)).toBe(all.length);
      expect(stats.capabilities['vision']).toBe(all.filter((model) => model.capabilities.includes('vision')).length);
    });
  });

  describe('interface leftovers', () => {
    it('batch cancel on a finished batch keeps its final status and says so', async () => {
      const cwd = cliWorkDir();
      writeFileSync(join(cwd, 'prompts.txt'), 'one\ntwo\n');
      const env = { ...providerEnv, BATCH_BACKOFF_MS: '10' };
      const submitted = await runSwitchyard(['batch', 'submit', 'prompts.txt', '--provider', 'openai', '--format', 'json'], { cwd, env });
      expect(submitted.code, submitted.stderr).toBe(0);
      const { batchId } = JSON.parse(submitted.stdout) as { batchId: string };
      const cancelled = await runSwitchyard(['batch', 'cancel', batchId, '--format', 'json'], { cwd, env });
      expect(cancelled.code, cancelled.stderr).toBe(0);
      const view = JSON.parse(cancelled.stdout) as { status: string; succeeded: number; cancelled: number; cancelledAt?: string };
      expect(view).toMatchObject({ status: 'completed', succeeded: 2, cancelled: 0 });
      expect(view.cancelledAt).toBeUndefined();
      expect(cancelled.stderr).toContain('already finished (completed): nothing to cancel');
      expect(JSON.parse((await runSwitchyard(['batch', 'status', batchId, '--format', 'json'], { cwd, env })).stdout)).toMatchObject({ status: 'completed' });
    });

    it('names each variable once when no provider is configured', async () => {
      const result = await runSwitchyard(['generate', 'hello']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('No AI provider is configured');
      expect(result.stderr.split('AWS_ACCESS_KEY_ID').length - 1).toBe(1);
    });
  });

  describe('help and README', () => {
    it('switchyard --help lists every command with every option; each command help is golden', async () => {
      const top = await runSwitchyard(['--help']);
      expect(top.code).toBe(0);
      const pages: string[] = [top.stdout];
      for (const { path, command } of leafCommands(commandTree())) {
        const usage = top.stdout.split('\n').find((line) => line.startsWith(`switchyard ${path.join(' ')}`));
        expect(usage, `switchyard --help lists ${path.join(' ')}`).toBeDefined();
        const entry = top.stdout.slice(top.stdout.indexOf(`switchyard ${path.join(' ')}`)).split(/\nswitchyard |\n\n/)[0] as string;
        for (const option of command.options.filter((candidate) => !candidate.hidden && candidate.long !== '--help'))
          expect(entry, `${path.join(' ')} ${option.long}`).toContain(option.long as string);
        const help = await runSwitchyard([...path, '--help']);
        expect(help.code).toBe(0);
        pages.push(`$ switchyard ${path.join(' ')} --help\n${help.stdout}`);
      }
      expectGolden('help.txt', pages.join('\n'));
    });

    it('the README lists every command and flag (the block switchyard --help ends with)', async () => {
      const readmePath = join(import.meta.dirname, '../../../README.md');
      const top = (await runSwitchyard(['--help'])).stdout;
      const index = top.slice(top.indexOf('switchyard serve'), top.indexOf('\n\nExit codes') + 1);
      const pattern = /(<!-- cli-commands:start -->\n```text\n)([\s\S]*?)(```\n<!-- cli-commands:end -->)/;
      if (process.env['UPDATE_GOLDEN'] === '1')
        writeFileSync(
          readmePath,
          readFileSync(readmePath, 'utf8').replace(pattern, (_all, open: string, _old: string, close: string) => `${open}${index}${close}`),
        );
      const block = pattern.exec(readFileSync(readmePath, 'utf8'));
      expect(block, 'README.md has the <!-- cli-commands:start --> block').not.toBeNull();
      expect(block?.[2], 'README CLI block is stale: run UPDATE_GOLDEN=1 npx vitest run test/contract/cli').toBe(index);
    });
  });
});
