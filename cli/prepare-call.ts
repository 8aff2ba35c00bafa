import { join } from 'node:path';
import type { GenerateOptions } from '../src/generation/generate-options.js';
import type { GenerateResult } from '../src/generation/generate-result.js';
import type { CliContext } from './cli-context.js';

function debug(context: CliContext, line: string): void {
  context.io.stderr.write(`debug: ${line}\n`);
}

/**
 * What `generate` and `stream` do before the call: connect the servers of `<cwd>/.mcp-config.json`
 * (the file the `mcp` commands edit and `serve` loads) so their tools are offered, unless tools
 * are off; with `--debug`, say on standard error which provider, servers and tools the call gets.
 */
export async function prepareCall(context: CliContext, options: GenerateOptions, debugging: boolean): Promise<void> {
  const { toolkit } = await context.toolkit();
  if (debugging) {
    try {
      const selection = toolkit.getProviderSelection(options.provider);
      debug(context, `provider ${selection.provider} (${selection.reason})${options.model !== undefined ? `, model ${options.model}` : ''}`);
    } catch (error) {
      // The call itself reports it, with its exit code.
      debug(context, `provider: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (options.disableTools === true) {
    if (debugging) debug(context, 'tools: off (--disable-tools): built-in and MCP tools are not offered, MCP servers not started');
    return;
  }
  const mcp = await context.loadMcpServers();
  if (!debugging) return;
  const path = join(context.io.cwd, '.mcp-config.json');
  if (mcp.connected.length === 0 && mcp.failed.length === 0) debug(context, `MCP servers: none configured in ${path}`);
  else {
    const failed = mcp.failed.map((entry) => `${entry.id} (${entry.error})`);
    debug(context, `MCP servers from ${path}: loaded ${mcp.connected.join(', ') || 'none'}${failed.length > 0 ? `; failed ${failed.join(', ')}` : ''}`);
  }
  const tools = await toolkit.getAllAvailableTools();
  const mcpTools = tools.filter((tool) => tool.category === 'mcp').map((tool) => tool.name);
  const builtIn = tools.filter((tool) => tool.category === 'built-in').length;
  debug(context, `tools offered: ${tools.length} (${builtIn} built-in, ${mcpTools.length} MCP${mcpTools.length > 0 ? `: ${mcpTools.join(', ')}` : ''})`);
}

/** With `--debug`: who answered, how long it took, how it ended. */
export function debugOutcome(context: CliContext, result: GenerateResult): void {
  const tools = result.toolsUsed.length > 0 ? `, tools used: ${result.toolsUsed.join(', ')}` : '';
  debug(
    context,
    `answered by ${result.provider}/${result.model} in ${result.responseTime} ms, ${result.usage.totalTokens} tokens, finish reason ${result.finishReason}${tools}`,
  );
}
