import { useState } from 'preact/hooks';
import type { SeedCostQuote, SeedCostSimulateRequest } from '../api/server-types';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

const scenarioFields = [
  { key: 'transaction_currency', label: 'Currency', placeholder: 'USD' },
  { key: 'card_network', label: 'Card network', placeholder: 'visa' },
  { key: 'payment_method_type', label: 'Funding', placeholder: 'credit' },
  { key: 'card_type', label: 'Card program', placeholder: 'standard' },
  { key: 'card_issuing_country', label: 'Issuer country or region', placeholder: 'us' },
] as const;

type ScenarioKey = (typeof scenarioFields)[number]['key'];

const money = (value: number) => value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 4 : 2);
const bps = (value: number) => value.toFixed(2);

/** Prices one payment per PSP with the seed cost table in effect (POST …/seed-costs/simulate), cheapest first. */
export function SimulateForm(props: { readonly tableVersion: number }) {
  const { api } = useDashboard();
  const [amount, setAmount] = useState('100');
  const [scenario, setScenario] = useState<Record<ScenarioKey, string>>({
    transaction_currency: '',
    card_network: '',
    payment_method_type: '',
    card_type: '',
    card_issuing_country: '',
  });
  const [psps, setPsps] = useState('');
  const [quotes, setQuotes] = useState<{ readonly rows: readonly SeedCostQuote[]; readonly tableVersion: number } | undefined>(undefined);
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    const request: SeedCostSimulateRequest = {
      amount: amount.trim() === '' ? Number.NaN : Number(amount),
      ...Object.fromEntries(scenarioFields.filter(({ key }) => scenario[key].trim() !== '').map(({ key }) => [key, scenario[key].trim()])),
      psps: psps
        .split(',')
        .map((psp) => psp.trim())
        .filter((psp) => psp !== ''),
    };
    void action.run(async () => {
      if (!Number.isFinite(request.amount)) throw new Error('The amount must be a number.');
      const rows = await api.costs.simulate(request);
      setQuotes({ rows: [...rows].sort((a, b) => a.cost_amount - b.cost_amount), tableVersion: props.tableVersion });
    });
  };

  const cheapest = quotes?.rows[0]?.psp;
  return (
    <section class="panel" aria-labelledby="simulate-title">
      <h2 id="simulate-title">Simulate a payment</h2>
      <form onSubmit={submit}>
        <div class="row">
          <div class="field">
            <label for="simulate-amount">Amount</label>
            <input id="simulate-amount" inputMode="decimal" required value={amount} onInput={(event) => setAmount(event.currentTarget.value)} />
          </div>
          {scenarioFields.map((field) => (
            <div class="field" key={field.key}>
              <label for={`simulate-${field.key}`}>{field.label}</label>
              <input
                id={`simulate-${field.key}`}
                placeholder={field.placeholder}
                value={scenario[field.key]}
                onInput={(event) => setScenario({ ...scenario, [field.key]: event.currentTarget.value })}
              />
            </div>
          ))}
          <div class="field">
            <label for="simulate-psps">PSPs (comma-separated, empty: all)</label>
            <input id="simulate-psps" value={psps} onInput={(event) => setPsps(event.currentTarget.value)} />
          </div>
        </div>
        <FormError error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          Simulate
        </button>
      </form>
      {quotes !== undefined && (
        <div data-testid="simulate-result">
          {quotes.tableVersion !== props.tableVersion && <p class="hint">The table changed since: simulate again for current prices.</p>}
          <DataTable
            caption="Cost per PSP, cheapest first"
            rows={quotes.rows}
            rowKey={(quote) => quote.psp}
            empty="No PSP of the table matched: the PSPs named are not in the seed cost table."
            columns={[
              {
                header: 'PSP',
                cell: (quote) =>
                  quote.psp === cheapest ? (
                    <>
                      {quote.psp} <span class="badge ok">cheapest</span>
                    </>
                  ) : (
                    quote.psp
                  ),
              },
              { header: 'Interchange (bps)', numeric: true, cell: (quote) => bps(quote.interchange_bps) },
              { header: 'Scheme (bps)', numeric: true, cell: (quote) => bps(quote.scheme_bps) },
              { header: 'Markup (bps)', numeric: true, cell: (quote) => bps(quote.markup_bps) },
              { header: 'Fixed', numeric: true, cell: (quote) => money(quote.fixed) },
              { header: 'All-in (bps)', numeric: true, cell: (quote) => bps(quote.effective_cost_bps) },
              { header: 'Cost', numeric: true, cell: (quote) => money(quote.cost_amount) },
            ]}
          />
        </div>
      )}
    </section>
  );
}
