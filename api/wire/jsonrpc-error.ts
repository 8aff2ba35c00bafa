/**
 * The error body of the MCP gateway (`/mcp`, `config.envelope: 'jsonrpc'`): a JSON-RPC error with
 * a null id, the shape the MCP SDK's own streamable HTTP transport answers HTTP-level failures with,
 * so an MCP client shows the message instead of failing to parse a body.
 * Codes: -32700 a body that is not JSON, -32603 our own failure, -32000 every other refusal
 * (authentication, limits, validation; the HTTP status says which).
 */
export function jsonRpcError(code: -32700 | -32603 | -32000, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
