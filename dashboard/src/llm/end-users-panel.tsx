import type { LlmEndUsersReport } from '../api/server-types';
import { DataTable } from '../components/data-table';

/**
 * Spend per end user of the merchant's keys (GET /analytics/llm/end-users): what each user of an
 * application sharing one key spent, the dearest first, beside the key's per-end-user limits.
 */
export function EndUsersPanel({ report }: { readonly report: LlmEndUsersReport }) {
  return (
    <section class="panel" aria-labelledby="llm-end-users-title">
      <h2 id="llm-end-users-title">End users</h2>
      <p class="hint">
        Calls that named an end user (<code>user</code>, <code>metadata.user_id</code> or the <code>x-switchyard-end-user</code> header). A key's{' '}
        <code>per_end_user</code> limits cap each of them.
      </p>
      <DataTable
        caption="Spend per end user and API key"
        rows={report.end_users}
        rowKey={(row) => `${row.end_user}-${row.api_key_id ?? ''}`}
        empty="No call named an end user in this range."
        columns={[
          { header: 'End user', cell: (row) => <code>{row.end_user}</code> },
          { header: 'API key', cell: (row) => (row.api_key_id === null ? '(no key)' : <code>{row.api_key_id}</code>) },
          { header: 'Calls', numeric: true, cell: (row) => row.calls },
          { header: 'Errors', numeric: true, cell: (row) => row.errors },
          { header: 'Cache hits', numeric: true, cell: (row) => row.cache_hits },
          { header: 'Tokens', numeric: true, cell: (row) => (row.input_tokens + row.output_tokens).toLocaleString() },
          { header: 'Cost (USD)', numeric: true, cell: (row) => row.cost_usd.toFixed(6) },
        ]}
      />
    </section>
  );
}
