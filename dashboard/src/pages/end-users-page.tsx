import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import type { ApiKeyListItem, KeyLimits } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { livePollMs, RangePicker } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { EndUsersPanel } from '../llm/end-users-panel';
import { useDashboard } from '../session/dashboard-context';

type EndUserLimits = NonNullable<KeyLimits['per_end_user']>;

/** A key's per-end-user limits in words ("none" when it caps no end user). */
export function describeEndUserLimits(limits: EndUserLimits | undefined): string {
  if (limits === undefined) return 'none';
  const parts = [
    limits.budget !== undefined ? `$${limits.budget.amount_usd} per ${limits.budget.period}` : undefined,
    limits.rpm !== undefined ? `${limits.rpm} requests/min` : undefined,
    limits.tpm !== undefined ? `${limits.tpm} tokens/min` : undefined,
    limits.max_concurrent !== undefined ? `${limits.max_concurrent} at once` : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/**
 * End users of the merchant's keys (issue 39): what each end user spent in the range (GET
 * /analytics/llm/end-users) and the per-end-user limits each key enforces (its effective limits,
 * GET /api-key/list), so a key shared by an application shows who uses it and what caps them.
 */
export function EndUsersPage() {
  const { api, session } = useDashboard();
  const [range, setRange] = useState<AnalyticsRange>('1d');
  const [live, setLive] = useState(true);
  const { resource, reload } = useResource(
    async (signal) => {
      const [report, keys] = await Promise.all([api.analytics.llmEndUsers({ range }, signal), api.keys.list()]);
      return { report, keys: keys.filter((key) => key.is_active) };
    },
    [range, session.merchantId],
    live ? livePollMs : undefined,
  );
  return (
    <>
      <RangePicker range={range} onRange={setRange} live={live} onLive={setLive} />
      <AsyncView resource={resource} label="end users" onRetry={reload}>
        {({ report, keys }) => (
          <>
            <section class="panel" aria-labelledby="end-user-limits-title">
              <h2 id="end-user-limits-title">Limits per end user, by key</h2>
              <p class="hint">
                Each end user of a key is held to its <code>per_end_user</code> limits (a key's own, else the merchant's defaults), in the same atomic step as
                the key's own. Set them on the API keys page or with <code>POST /api-key/&#123;key_id&#125;/limits</code>.
              </p>
              <DataTable
                caption="Per-end-user limits of the merchant's active keys"
                rows={keys}
                rowKey={(key: ApiKeyListItem) => key.key_id}
                empty="No active key."
                columns={[
                  { header: 'Key', cell: (key) => <code>{key.key_prefix}</code> },
                  { header: 'Description', cell: (key) => key.description ?? '—' },
                  { header: 'Limits per end user', cell: (key) => describeEndUserLimits(key.effective_limits?.per_end_user) },
                  { header: 'Source', cell: (key) => (key.limits?.per_end_user !== undefined ? "the key's own" : "merchant's defaults") },
                ]}
              />
            </section>
            <EndUsersPanel report={report} />
          </>
        )}
      </AsyncView>
    </>
  );
}
