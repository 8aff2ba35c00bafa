/** The dashboard's pages, addressed by the URL fragment (#/overview): the server serves one file. */
export const pages = [
  { path: 'overview', title: 'Overview', group: 'Payments' },
  { path: 'audit', title: 'Payment audit', group: 'Payments' },
  { path: 'explorer', title: 'Decision explorer', group: 'Payments' },
  { path: 'routing', title: 'Routing', group: 'Payments' },
  { path: 'costs', title: 'Costs', group: 'Payments' },
  { path: 'autopilot', title: 'Autopilot', group: 'Payments' },
  { path: 'experiments', title: 'Experiments', group: 'Payments' },
  { path: 'volume-commitments', title: 'Volume commitments', group: 'Payments' },
  { path: 'models', title: 'Model registry', group: 'Models and AI' },
  { path: 'route-groups', title: 'Route groups', group: 'Models and AI' },
  { path: 'playground', title: 'Playground', group: 'Models and AI' },
  { path: 'batches', title: 'Batch jobs', group: 'Models and AI' },
  { path: 'llm-usage', title: 'LLM usage', group: 'Models and AI' },
  { path: 'end-users', title: 'End users', group: 'Models and AI' },
  { path: 'mcp', title: 'MCP gateway', group: 'Models and AI' },
  { path: 'provider-credentials', title: 'Provider credentials', group: 'Models and AI' },
  { path: 'keys', title: 'API keys', group: 'Account' },
  { path: 'members', title: 'Members', group: 'Account' },
  { path: 'account', title: 'Your account', group: 'Account' },
  { path: 'new-merchant', title: 'New merchant', group: 'Account' },
] as const;

export type PagePath = (typeof pages)[number]['path'];

export interface Location {
  readonly page: PagePath;
  /** The fragment's query (#/audit?payment_id=p1): deep links into a page. */
  readonly params: URLSearchParams;
}

export function parseLocation(hash: string): Location {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const page = pages.find((candidate) => candidate.path === path)?.path ?? 'overview';
  return { page, params: new URLSearchParams(query) };
}

export function hrefOf(page: PagePath, params?: Record<string, string>): string {
  const query = params === undefined ? '' : new URLSearchParams(params).toString();
  return `#/${page}${query === '' ? '' : `?${query}`}`;
}

export function titleOf(page: PagePath): string {
  return pages.find((candidate) => candidate.path === page)!.title;
}
