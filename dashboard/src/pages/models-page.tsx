import { useState } from 'preact/hooks';
import type { ModelConfig } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

const price = (value: number | undefined) => (value === undefined ? '—' : `$${value.toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`);

/** The model registry (GET /models, GET /models/search): filter by capability, price and provider. */
export function ModelsPage() {
  const { api } = useDashboard();
  const all = useResource(() => api.genai.models(), []);
  const [capability, setCapability] = useState('');
  const [maxPrice, setMaxPrice] = useState('');
  const [provider, setProvider] = useState('');
  const [applied, setApplied] = useState({ capability: '', maxPrice: '' });
  const filtered = useResource(
    async () =>
      applied.capability === '' && applied.maxPrice === ''
        ? undefined
        : (await api.genai.searchModels(applied.capability || undefined, applied.maxPrice === '' ? undefined : Number(applied.maxPrice))).results,
    [applied.capability, applied.maxPrice],
  );

  return (
    <AsyncView
      resource={all.resource}
      label="the model registry"
      onRetry={all.reload}
      isEmpty={(list) => list.models.length === 0}
      empty="The registry has no models."
    >
      {(list) => {
        const capabilities = [...new Set(list.models.flatMap((model) => model.capabilities))].sort();
        const providers = [...new Set(list.models.map((model) => model.provider))].sort();
        return (
          <>
            <form
              class="inline-form"
              role="search"
              aria-label="Filter models"
              onSubmit={(event) => {
                event.preventDefault();
                setApplied({ capability, maxPrice });
              }}
            >
              <div class="field">
                <label for="model-capability">Capability</label>
                <select id="model-capability" value={capability} onChange={(event) => setCapability(event.currentTarget.value)}>
                  <option value="">Any</option>
                  {capabilities.map((name) => (
                    <option key={name}>{name}</option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="model-price">Max average price (USD / 1K tokens)</label>
                <input id="model-price" inputMode="decimal" value={maxPrice} onInput={(event) => setMaxPrice(event.currentTarget.value)} />
              </div>
              <div class="field">
                <label for="model-provider">Provider</label>
                <select id="model-provider" value={provider} onChange={(event) => setProvider(event.currentTarget.value)}>
                  <option value="">Any</option>
                  {providers.map((name) => (
                    <option key={name}>{name}</option>
                  ))}
                </select>
              </div>
              <button type="submit" class="primary">
                Filter
              </button>
            </form>
            <AsyncView resource={filtered.resource} label="matching models" onRetry={filtered.reload}>
              {(results) => {
                const models: readonly ModelConfig[] = (results ?? list.models).filter((model) => provider === '' || model.provider === provider);
                return (
                  <section class="panel" aria-labelledby="models-title">
                    <h2 id="models-title">
                      {models.length} of {list.count} models{list.version !== null ? ` (registry ${list.version})` : ''}
                    </h2>
                    <DataTable
                      caption="Models, with prices in USD per 1,000 tokens"
                      rows={models}
                      rowKey={(model) => `${model.provider}/${model.key}`}
                      pageSize={15}
                      empty="No model matches these filters."
                      columns={[
                        { header: 'Model', cell: (model) => <span title={model.metadata.description}>{model.name}</span> },
                        { header: 'Provider', cell: (model) => model.provider },
                        { header: 'Id', cell: (model) => <code>{model.id}</code> },
                        { header: 'Capabilities', cell: (model) => model.capabilities.join(', ') },
                        { header: 'Input', numeric: true, cell: (model) => price(model.pricing?.input) },
                        { header: 'Output', numeric: true, cell: (model) => price(model.pricing?.output) },
                        { header: 'Cache read', numeric: true, cell: (model) => price(model.pricing?.cacheRead) },
                        { header: 'Cache write', numeric: true, cell: (model) => price(model.pricing?.cacheWrite) },
                        { header: 'Context', numeric: true, cell: (model) => model.contextWindow?.toLocaleString() ?? '—' },
                        { header: 'Max output', numeric: true, cell: (model) => model.maxOutputTokens?.toLocaleString() ?? '—' },
                        {
                          header: 'Status',
                          cell: (model) => (model.deprecated ? <span class="badge warn">Deprecated</span> : <span class="badge ok">Current</span>),
                        },
                      ]}
                    />
                  </section>
                );
              }}
            </AsyncView>
          </>
        );
      }}
    </AsyncView>
  );
}
