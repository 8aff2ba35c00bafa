import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import type { Batch, BatchResults } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { Pager } from '../components/pager';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/**
 * The service has no "list my batches" route, so the page remembers the batches submitted from
 * this browser, per merchant, and reads each one's progress from GET /api/batches/{id}.
 */
const storageKey = (merchantId: string) => `switchyard.batches.${merchantId}`;
const rememberedBatches = (merchantId: string): string[] => {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey(merchantId)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    localStorage.removeItem(storageKey(merchantId)); // unreadable: start a fresh list
    return [];
  }
};
/** 2 s: progress moves at the speed of provider calls; more often would only load the service. */
const progressPollMs = 2_000;
const resultsPageSize = 10;

function BatchResultsView(props: { readonly batchId: string }) {
  const { api } = useDashboard();
  const [page, setPage] = useState(1);
  const { resource, reload } = useResource(
    (_signal): Promise<BatchResults> => api.genai.batchResults(props.batchId, (page - 1) * resultsPageSize, resultsPageSize),
    [props.batchId, page],
  );
  return (
    <section class="panel" aria-labelledby="batch-results-title">
      <h2 id="batch-results-title">Results of {props.batchId}</h2>
      <AsyncView resource={resource} label="batch results" onRetry={reload} isEmpty={(results) => results.items.length === 0} empty="This batch has no items.">
        {(results) => (
          <>
            <DataTable
              caption="Items in index order"
              rows={results.items}
              rowKey={(item) => item.jobId}
              pageSize={resultsPageSize}
              columns={[
                { header: '#', numeric: true, cell: (item) => item.index },
                { header: 'Status', cell: (item) => item.status },
                { header: 'Prompt', cell: (item) => item.prompt },
                { header: 'Answer or failure', cell: (item) => item.content ?? item.error?.message ?? '—' },
              ]}
            />
            <Pager page={page} pages={Math.max(1, Math.ceil(results.total / resultsPageSize))} label="Batch results" onPage={setPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}

/** Batch jobs: submit prompts, watch progress, cancel, read results. */
export function BatchesPage() {
  const { api, session } = useDashboard();
  const [ids, setIds] = useState<string[]>(() => rememberedBatches(session.merchantId));
  const [prompts, setPrompts] = useState('');
  const [provider, setProvider] = useState('');
  const [model, setModel] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const submitAction = useAction();
  const cancelAction = useAction();
  const batches = useResource(
    (): Promise<(Batch | { batchId: string; missing: true })[]> =>
      Promise.all(
        ids.map((id) =>
          api.genai.batch(id).catch((error: unknown) => {
            // Past BATCH_RETENTION_DAYS a batch is gone (404): listed as such, so the operator can forget it.
            if (error instanceof ApiError && error.status === 404) return { batchId: id, missing: true as const };
            throw error;
          }),
        ),
      ),
    [ids.join(','), session.merchantId],
    progressPollMs,
  );

  const remember = (next: string[]) => {
    localStorage.setItem(storageKey(session.merchantId), JSON.stringify(next));
    setIds(next);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const list = prompts
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    void submitAction.run(async () => {
      const [first, ...rest] = list;
      if (first === undefined) throw new Error('Enter at least one prompt, one per line.');
      const batch = await api.genai.submitBatch({
        prompts: [first, ...rest],
        options: { ...(provider !== '' ? { provider } : {}), ...(model !== '' ? { model } : {}) },
      });
      remember([batch.batchId, ...ids]);
      setPrompts('');
    });
  };

  return (
    <>
      <form class="panel" onSubmit={submit} aria-labelledby="batch-submit-title">
        <h2 id="batch-submit-title">Submit a batch</h2>
        <div class="field">
          <label for="batch-prompts">Prompts, one per line</label>
          <textarea id="batch-prompts" rows={5} value={prompts} onInput={(event) => setPrompts(event.currentTarget.value)} />
        </div>
        <div class="row">
          <div class="field">
            <label for="batch-provider">Provider (empty: auto)</label>
            <input id="batch-provider" value={provider} onInput={(event) => setProvider(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="batch-model">Model (empty: the provider's default)</label>
            <input id="batch-model" value={model} onInput={(event) => setModel(event.currentTarget.value)} />
          </div>
        </div>
        <FormError error={submitAction.error} />
        <button type="submit" class="primary" disabled={submitAction.busy}>
          Submit batch
        </button>
      </form>
      <section class="panel" aria-labelledby="batch-list-title">
        <h2 id="batch-list-title">Batches submitted from this browser</h2>
        <FormError error={cancelAction.error} />
        <AsyncView
          resource={batches.resource}
          label="batches"
          onRetry={batches.reload}
          isEmpty={(list) => list.length === 0}
          empty="No batch submitted from this browser yet."
        >
          {(list) => (
            <DataTable
              caption="Batches and their progress"
              rows={list}
              rowKey={(batch) => batch.batchId}
              columns={[
                { header: 'Batch', cell: (batch) => <code>{batch.batchId}</code> },
                { header: 'Status', cell: (batch) => ('missing' in batch ? 'expired or unknown' : batch.status) },
                {
                  header: 'Progress',
                  cell: (batch) =>
                    'missing' in batch ? (
                      '—'
                    ) : (
                      <>
                        <progress max={batch.total} value={batch.total - batch.pending} aria-label={`Progress of ${batch.batchId}`} />
                        <span class="hint">
                          {batch.succeeded} succeeded, {batch.failed} failed, {batch.pending} pending of {batch.total}
                        </span>
                      </>
                    ),
                },
                {
                  header: 'Actions',
                  cell: (batch) => (
                    <div class="actions">
                      <button type="button" onClick={() => setOpen(batch.batchId)} aria-label={`Results of ${batch.batchId}`}>
                        Results
                      </button>
                      {!('missing' in batch) && batch.status === 'running' && (
                        <button
                          type="button"
                          class="danger"
                          onClick={() => void cancelAction.run(async () => void (await api.genai.cancelBatch(batch.batchId)))}
                          aria-label={`Cancel ${batch.batchId}`}
                        >
                          Cancel
                        </button>
                      )}
                      <button type="button" onClick={() => remember(ids.filter((id) => id !== batch.batchId))} aria-label={`Forget ${batch.batchId}`}>
                        Forget
                      </button>
                    </div>
                  ),
                },
              ]}
            />
          )}
        </AsyncView>
      </section>
      {open !== undefined && <BatchResultsView key={open} batchId={open} />}
    </>
  );
}
