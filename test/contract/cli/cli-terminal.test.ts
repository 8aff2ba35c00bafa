import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from '../../fixtures/providers/fake-http-server.js';
import { chatCompletion, chatCompletionStream } from '../../fixtures/providers/openai-wire.js';
import { echoServerPath } from '../../integration/mcp/mcp-test-helpers.js';
import { cliWorkDir, expectGolden, runSwitchyard, mcpWorkDir, removeCliWorkDirs } from '../../helpers/cli-harness.js';

/**
 * What a terminal sees (spinners only there, never on standard output), the timeout exit code,
 * `stream --format json` events, and golden outputs of the remaining listings.
 */

/** A provider answer held back until the test opens the gate (a spinner must have shown first). */
interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}
function gate(): Gate {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

let held: Gate | undefined;

async function answer(request: RecordedRequest): Promise<FakeResponse> {
  const body = request.body as { model: string; stream?: boolean; messages: { content: unknown }[] };
  if (held !== undefined) await held.opened;
  if (body.stream === true)
    return chatCompletionStream({ model: body.model, deltas: ['Two ', 'plus ', 'two ', 'is ', 'four.'], usage: { promptTokens: 9, completionTokens: 5 } });
  return chatCompletion({ model: body.model, content: `echo: ${JSON.stringify(body.messages.at(-1)?.content ?? '').slice(1, -1)}` });
}

let provider: FakeHttpServer;
let providerEnv: Record<string, string>;

afterAll(removeCliWorkDirs);

beforeAll(async () => {
  provider = await startFakeHttpServer(answer);
  providerEnv = { OPENAI_API_KEY: 'sk-cli-terminal', OPENAI_BASE_URL: `${provider.url}/v1` };
});
afterEach(() => {
  held?.open();
  held = undefined;
});
afterAll(async () => provider.close());

const spinnerFrame = /\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

describe('switchyard on a terminal', () => {
  it('shows a spinner on standard error while generate waits, clears it, and keeps standard output clean', async () => {
    held = gate();
    const release = held;
    const result = await runSwitchyard(['gen', 'hi', '--disable-tools', '--format', 'json'], {
      env: providerEnv,
      tty: true,
      // The provider answers only once the terminal has shown a spinner frame.
      onStderr: (written) => spinnerFrame.test(written) && release.open(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\r⠋ Generating…/);
    expect(result.stderr.endsWith('\r\u001b[2K')).toBe(true);
    expect(JSON.parse(result.stdout)).toMatchObject({ content: 'echo: hi', provider: 'openai' });
  });

  it('spins for stream until the first chunk, then writes only the text to standard output', async () => {
    held = gate();
    const release = held;
    const result = await runSwitchyard(['stream', 'hi', '--disable-tools'], {
      env: providerEnv,
      tty: true,
      onStderr: (written) => spinnerFrame.test(written) && release.open(),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\r⠋ Connecting…/);
    expect(result.stdout).toBe('Two plus two is four.\n');
  });

  it('writes nothing to standard error with --quiet on a terminal, and nothing off a terminal', async () => {
    for (const [flags, tty] of [
      [['--quiet'], true],
      [[], false],
    ] as const) {
      const result = await runSwitchyard(['stream', 'hi', '--disable-tools', ...flags], { env: providerEnv, tty });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('Two plus two is four.\n');
    }
  });

  it('exits 5 when the call outlives --timeout', async () => {
    held = gate();
    const result = await runSwitchyard(['gen', 'hi', '--disable-tools', '--timeout', '150', '--format', 'json'], { env: providerEnv });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^switchyard: .*tim/i);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
    const streamed = await runSwitchyard(['stream', 'hi', '--disable-tools', '--timeout', '0.15s'], { env: providerEnv });
    expect(streamed.code).toBe(5);
  });
});

describe('stream --format json', () => {
  it('writes one JSON event a line: start, the chunks, then complete with the usage', async () => {
    const result = await runSwitchyard(['stream', '--disable-tools', '--format', 'json'], { env: providerEnv, stdin: 'two plus two?' });
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ type: 'start', provider: 'openai', streamId: expect.any(String) });
    const chunks = events.slice(1, -1);
    expect(chunks.every((event) => event['type'] === 'chunk')).toBe(true);
    expect(chunks.map((event) => event['content']).join('')).toBe('Two plus two is four.');
    expect(events.at(-1)).toMatchObject({
      type: 'complete',
      streamId: events[0]?.['streamId'],
      totalChunks: chunks.length,
      finishReason: 'stop',
      usage: { inputTokens: 9, outputTokens: 5, totalTokens: 14 },
    });
  });

  it('refuses a format it does not write with exit 2', async () => {
    const result = await runSwitchyard(['stream', 'hi', '--format', 'yaml'], { env: providerEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--format must be text or json');
  });
});

describe('golden listings', () => {
  it('models best and status as json', async () => {
    const best = await runSwitchyard(['models', 'best', '--capability', 'vision', '--optimize-for', 'cost']);
    expect(best.code, best.stderr).toBe(0);
    expectGolden('models-best-vision-cost.table.txt', best.stdout);
    const status = await runSwitchyard(['status', '--format', 'json'], { env: { OPENAI_API_KEY: 'sk-status', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(status.code, status.stderr).toBe(0);
    expectGolden('status.json', status.stdout);
  });

  it("an MCP server's tools and the server list, as table and yaml", async () => {
    const cwd = mcpWorkDir();
    expect((await runSwitchyard(['mcp', 'add', 'echo', process.execPath, echoServerPath], { cwd })).code).toBe(0);
    const tools = await runSwitchyard(['mcp', 'tools', 'echo'], { cwd });
    expect(tools.code, tools.stderr).toBe(0);
    expectGolden('mcp-tools-echo.table.txt', tools.stdout);
    const list = await runSwitchyard(['mcp', 'list'], { cwd });
    expectGolden('mcp-list.table.txt', list.stdout);
    const yaml = await runSwitchyard(['mcp', 'list', '--format', 'yaml'], { cwd });
    expectGolden('mcp-list.yaml', yaml.stdout);
  });

  it("a batch's results as a table", async () => {
    const cwd = cliWorkDir();
    writeFileSync(join(cwd, 'prompts.txt'), 'first prompt\nsecond prompt\nthird prompt\n');
    const submitted = await runSwitchyard(['batch', 'submit', 'prompts.txt', '--provider', 'openai', '--format', 'json'], { cwd, env: providerEnv });
    expect(submitted.code, submitted.stderr).toBe(0);
    const { batchId } = JSON.parse(submitted.stdout) as { batchId: string };
    const results = await runSwitchyard(['batch', 'results', batchId, '--offset', '1', '--limit', '2'], { cwd, env: providerEnv });
    expect(results.code, results.stderr).toBe(0);
    expectGolden('batch-results-page.table.txt', results.stdout);
  });
});
