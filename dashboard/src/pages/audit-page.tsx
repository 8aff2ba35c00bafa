import { useState } from 'preact/hooks';
import type { AnalyticsRange } from '../api/analytics-api';
import type { AuditResult, AuditTimelineEntry } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { Pager } from '../components/pager';
import { RangePicker } from '../components/range-picker';
import { useResource } from '../components/use-resource';
import { hrefOf, type Location } from '../routes';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, useTimeZone } from '../time/time-zone';

type SearchBy = 'payment_id' | 'request_id';
const pageSize = 20;

/** What each flow type of the timeline is, in the operator's words. */
function kindOf(entry: AuditTimelineEntry): string {
  const flow = entry.flow_type;
  if (flow.includes('rule_hit') || flow.startsWith('routing_evaluate')) return 'Rule hit';
  if (flow.includes('score_snapshot')) return 'Score snapshot';
  if (flow.includes('error')) return 'Error';
  if (flow.startsWith('update_')) return 'Feedback';
  if (flow.startsWith('decide_gateway')) return 'Decision';
  return flow;
}

/** The PSP error a feedback event carried and its gateway status map class (feedback.received's `gsm`). */
interface FeedbackGsm {
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly unifiedCode: string | null;
  readonly unifiedMessage: string | null;
  readonly gatewayFault: boolean;
  readonly scoringFilter: boolean;
}

/** What the class meant for the gateway's score (docs/gsm.md): only with the gsm-scoring-filter on is a failure not its fault left out. */
function scoringWords(gsm: FeedbackGsm): string {
  if (gsm.gatewayFault) return 'the gateway’s failure: counted against its score';
  return gsm.scoringFilter
    ? 'not the gateway’s fault: its score is kept (gsm-scoring-filter on)'
    : 'not the gateway’s fault by its class, but counted against its score (gsm-scoring-filter off)';
}

/** What a feedback entry's details say of the payment: its outcome and, for a failure, the decline. */
function feedbackOf(entry: AuditTimelineEntry): { outcome: string | null; gsm: FeedbackGsm | null } {
  const details = entry.details_json;
  if (details === null || typeof details !== 'object') return { outcome: null, gsm: null };
  const { outcome, gsm } = details as { outcome?: unknown; gsm?: unknown };
  return {
    outcome: typeof outcome === 'string' ? outcome : null,
    gsm: gsm !== null && typeof gsm === 'object' ? (gsm as FeedbackGsm) : null,
  };
}

const outcomeWords: Readonly<Record<string, string>> = { success: 'approved', failure: 'declined', pending: 'pending, no final outcome yet' };

/** A feedback entry in words: approved / declined / pending, and for a decline its code and GSM class. */
function FeedbackSummary(props: { readonly entry: AuditTimelineEntry }) {
  const { outcome, gsm } = feedbackOf(props.entry);
  const words = outcome === null ? null : (outcomeWords[outcome] ?? outcome);
  return (
    <>
      {words !== null && (
        <>
          {' '}
          · <span class={outcome === 'failure' ? 'inline-error' : undefined}>payment {words}</span>
        </>
      )}
      {props.entry.status !== null && <> ({props.entry.status})</>}
      {gsm !== null && (
        <div class="decline">
          Decline code {gsm.errorCode === null ? 'none sent' : <code>{gsm.errorCode}</code>}
          {gsm.errorMessage !== null && <>: {gsm.errorMessage}</>} · GSM class{' '}
          {gsm.unifiedCode === null ? 'unclassified' : `${gsm.unifiedCode} (${gsm.unifiedMessage ?? 'no message'})`} · {scoringWords(gsm)}
        </div>
      )}
      {outcome === 'failure' && gsm === null && <div class="decline">No decline code was sent with this failure.</div>}
    </>
  );
}

function Timeline(props: { readonly entries: readonly AuditTimelineEntry[] }) {
  return (
    <ol class="timeline" aria-label="Events, oldest first">
      {props.entries.map((entry) => (
        <li key={entry.id}>
          <span class="when">{formatDateTime(entry.created_at_ms)}</span>
          <div>
            <strong>{kindOf(entry)}</strong> <code>{entry.flow_type}</code>
            {entry.gateway !== null && <> · gateway {entry.gateway}</>}
            {kindOf(entry) === 'Feedback' ? (
              <FeedbackSummary entry={entry} />
            ) : kindOf(entry) === 'Decision' && entry.flow_type === 'decide_gateway_decision' ? (
              <> · gateway chosen, no outcome until feedback</>
            ) : (
              entry.status !== null && <> · {entry.status}</>
            )}
            {entry.routing_approach !== null && <> · {entry.routing_approach}</>}
            {entry.rule_name !== null && <> · rule “{entry.rule_name}”</>}
            {entry.score_value !== null && <> · score {entry.score_value.toFixed(4)}</>}
            {entry.error_code !== null && (
              <>
                {' '}
                ·{' '}
                <span class="inline-error">
                  {entry.error_code}: {entry.error_message}
                </span>
              </>
            )}
          </div>
          {entry.details_json !== null && (
            <details>
              <summary>Details</summary>
              <pre class="json">{JSON.stringify(entry.details_json, null, 2)}</pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Payment audit: find a payment or request and read every event of it on a timeline. */
export function AuditPage(props: { readonly location: Location }) {
  const { api, session } = useDashboard();
  const zone = useTimeZone();
  const initialPayment = props.location.params.get('payment_id') ?? '';
  const [by, setBy] = useState<SearchBy>(props.location.params.get('request_id') !== null ? 'request_id' : 'payment_id');
  const [text, setText] = useState(initialPayment || (props.location.params.get('request_id') ?? ''));
  const [query, setQuery] = useState<{ by: SearchBy; value: string }>({ by, value: text });
  const [range, setRange] = useState<AnalyticsRange>('1d');
  const [page, setPage] = useState(1);
  const { resource, reload } = useResource(
    (signal) => api.analytics.paymentAudit({ range, page, page_size: pageSize, [query.by]: query.value === '' ? undefined : query.value }, signal),
    [range, page, query.by, query.value, session.merchantId],
  );

  const submit = (event: Event) => {
    event.preventDefault();
    setPage(1);
    setQuery({ by, value: text.trim() });
  };
  const open = (result: AuditResult) => {
    const next =
      result.payment_id !== null ? { by: 'payment_id' as const, value: result.payment_id } : { by: 'request_id' as const, value: result.request_id ?? '' };
    setBy(next.by);
    setText(next.value);
    setPage(1);
    setQuery(next);
  };

  return (
    <>
      <form class="inline-form" onSubmit={submit} role="search" aria-label="Payment audit">
        <div class="field">
          <label for="audit-by">Search by</label>
          <select id="audit-by" value={by} onChange={(event) => setBy(event.currentTarget.value as SearchBy)}>
            <option value="payment_id">Payment id</option>
            <option value="request_id">Request id</option>
          </select>
        </div>
        <div class="field">
          <label for="audit-id">{by === 'payment_id' ? 'Payment id' : 'Request id'}</label>
          <input id="audit-id" value={text} placeholder="empty: every payment in the range" onInput={(event) => setText(event.currentTarget.value)} />
        </div>
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      <RangePicker range={range} onRange={setRange} />
      <AsyncView
        resource={resource}
        label="the payment audit"
        onRetry={reload}
        isEmpty={(report) => report.results.length === 0}
        empty="No payment matches in this range."
      >
        {(report) => (
          <>
            <section class="panel" aria-labelledby="audit-results-title">
              <h2 id="audit-results-title">
                {report.total_results} matching {report.total_results === 1 ? 'payment' : 'payments'} ({report.total_success} succeeded, {report.total_failure}{' '}
                failed, {report.total_results - report.total_success - report.total_failure} with no outcome yet)
              </h2>
              <DataTable
                caption="Payments and requests, most recent first"
                rows={report.results}
                rowKey={(result) => result.lookup_key}
                pageSize={pageSize}
                columns={[
                  {
                    header: 'Payment / request',
                    cell: (result) => (
                      <button type="button" class="link" onClick={() => open(result)}>
                        {result.payment_id ?? result.request_id ?? result.lookup_key}
                      </button>
                    ),
                  },
                  { header: 'Last status', cell: (result) => result.latest_status ?? 'No outcome yet' },
                  { header: 'Gateway', cell: (result) => result.latest_gateway ?? '—' },
                  { header: 'Events', numeric: true, cell: (result) => result.event_count },
                  { header: `Last seen (${zone})`, cell: (result) => formatDateTime(result.last_seen_ms) },
                ]}
              />
              <Pager page={page} pages={Math.max(1, Math.ceil(report.total_results / pageSize))} label="Audit results" onPage={setPage} />
            </section>
            {query.value !== '' && report.results[0] !== undefined && (
              <section class="panel" aria-labelledby="timeline-title" data-testid="audit-timeline">
                <h2 id="timeline-title">Timeline of {query.value}</h2>
                <p class="panel-note">Times in {zone}.</p>
                <p>
                  <a href={hrefOf('explorer', { payment_id: report.results[0].payment_id ?? '', gateways: report.results[0].gateways.join(',') })}>
                    Replay this decision in the explorer
                  </a>
                </p>
                <Timeline entries={report.timeline} />
              </section>
            )}
          </>
        )}
      </AsyncView>
    </>
  );
}
