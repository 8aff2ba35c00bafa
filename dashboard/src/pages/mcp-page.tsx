import type { GatewayToolView } from '../api/platform-api';
import type { ApiKeyListItem } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { CopyButton } from '../components/copy-button';
import { DataTable } from '../components/data-table';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/** Whether an allow-list lets a gateway tool name through: an exact entry or a prefix ending in `*` (as /mcp reads it). */
function allows(allowedTools: readonly string[] | undefined, name: string): boolean {
  if (allowedTools === undefined) return true;
  return allowedTools.some((entry) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name));
}

/** A remote MCP server as Claude Code's `.mcp.json` describes one (Codex reads the same URL and header). */
export function clientConfigOf(url: string): string {
  // `${VAR}` is literal here: Claude Code expands environment variables in .mcp.json, so the key stays out of the file.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the client, not this code, fills the placeholder
  const config = { mcpServers: { switchyard: { type: 'http', url, headers: { Authorization: 'Bearer ${SWITCHYARD_API_KEY}' } } } };
  return JSON.stringify(config, null, 2);
}

function KeyAllowLists(props: { readonly keys: readonly ApiKeyListItem[]; readonly defaults: readonly string[] | undefined }) {
  return (
    <section class="panel" aria-labelledby="mcp-allow-lists-title">
      <h2 id="mcp-allow-lists-title">Allow-lists of the keys</h2>
      <p class="hint">
        A key sees and may call only the tools its allow-list names (exact names, or prefixes ending in <code>*</code>); a key without one uses the merchant's
        default{props.defaults === undefined ? ', and there is none: every tool' : ''}.
      </p>
      <DataTable
        caption="MCP tool allow-list of each active key"
        rows={props.keys}
        rowKey={(key) => key.key_id}
        empty="No active key."
        columns={[
          { header: 'Key', cell: (key) => <code>{key.key_prefix}</code> },
          { header: 'Description', cell: (key) => key.description ?? '—' },
          {
            header: 'Allowed tools',
            cell: (key) => {
              const own = key.mcp?.allowed_tools;
              if (own !== undefined) return own.length === 0 ? 'none' : own.join(', ');
              return props.defaults === undefined ? 'every tool' : `merchant default: ${props.defaults.join(', ')}`;
            },
          },
        ]}
      />
    </section>
  );
}

/**
 * The MCP gateway (issue 39): the URL and a client config to copy, the merchant's MCP servers
 * (its own and the operator's it may use), every tool /mcp serves under its namespaced name, and
 * which keys' allow-lists let each one through.
 */
export function McpPage() {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource(async () => {
    const [servers, tools, keys, defaults] = await Promise.all([api.platform.mcpServers(), api.platform.gatewayTools(), api.keys.list(), api.keys.defaults()]);
    return { servers: servers.servers, tools, keys: keys.filter((key) => key.is_active), defaults: defaults.mcp?.allowed_tools };
  }, [session.merchantId]);
  return (
    <AsyncView resource={resource} label="MCP gateway" onRetry={reload}>
      {({ servers, tools, keys, defaults }) => {
        const url = new URL(tools.path, window.location.origin).href;
        const snippet = clientConfigOf(url);
        const command = `claude mcp add --transport http switchyard ${url} --header "Authorization: Bearer $SWITCHYARD_API_KEY"`;
        const keysAllowing = (tool: GatewayToolView) =>
          keys.filter((key) => allows(key.mcp?.allowed_tools ?? defaults, tool.name)).map((key) => key.key_prefix);
        return (
          <>
            <section class="panel" aria-labelledby="mcp-connect-title">
              <h2 id="mcp-connect-title">Connect an MCP client</h2>
              <p>
                Endpoint: <code data-testid="mcp-url">{url}</code> <CopyButton text={url} label="Copy URL" />
              </p>
              <p class="hint">
                Streamable HTTP, authenticated by an API key of this merchant (<code>Authorization: Bearer DE_…</code> or <code>x-api-key</code>). For Claude
                Code's <code>.mcp.json</code>:
              </p>
              <pre class="json" data-testid="mcp-client-config">
                {snippet}
              </pre>
              <CopyButton text={snippet} label="Copy client config" />
              <p class="hint">Or from a shell:</p>
              <pre class="json" data-testid="mcp-client-command">
                {command}
              </pre>
              <CopyButton text={command} label="Copy command" />
            </section>
            <section class="panel" aria-labelledby="mcp-servers-title">
              <h2 id="mcp-servers-title">MCP servers</h2>
              <DataTable
                caption="MCP servers this merchant may use"
                rows={servers}
                rowKey={(server) => `${server.owner}:${server.id}`}
                empty="No MCP server: register one with POST /api/mcp/servers; the built-in tools are served anyway."
                columns={[
                  { header: 'Server', cell: (server) => <code>{server.id}</code> },
                  { header: 'Owner', cell: (server) => (server.owner === 'operator' ? "operator's" : 'yours') },
                  { header: 'Transport', cell: (server) => server.transport },
                  {
                    header: 'Status',
                    cell: (server) => (
                      <span class={`badge ${server.status === 'connected' ? 'ok' : 'warn'}`} title={server.error}>
                        {server.status}
                      </span>
                    ),
                  },
                  { header: 'Tools', numeric: true, cell: (server) => server.toolCount },
                ]}
              />
            </section>
            <section class="panel" aria-labelledby="mcp-tools-title">
              <h2 id="mcp-tools-title">Tools served at /mcp</h2>
              <p class="hint">
                Named <code>&lt;server&gt;__&lt;tool&gt;</code> so two servers' tools never collide; <code>switchyard__…</code> are the built-in ones.
              </p>
              <DataTable
                caption="Tools the MCP gateway serves this merchant"
                rows={tools.tools}
                rowKey={(tool) => tool.name}
                pageSize={25}
                empty="No tools."
                columns={[
                  { header: 'Name', cell: (tool) => <code>{tool.name}</code> },
                  {
                    header: 'From',
                    cell: (tool) => (tool.server === null ? tool.kind : `${tool.server} (${tool.owner === 'operator' ? "operator's" : 'yours'})`),
                  },
                  { header: 'Description', cell: (tool) => tool.description },
                  {
                    header: 'Keys allowed',
                    cell: (tool) => {
                      const allowed = keysAllowing(tool);
                      return allowed.length === keys.length ? 'every key' : allowed.length === 0 ? 'no key' : allowed.join(', ');
                    },
                  },
                ]}
              />
            </section>
            <KeyAllowLists keys={keys} defaults={defaults} />
          </>
        );
      }}
    </AsyncView>
  );
}
