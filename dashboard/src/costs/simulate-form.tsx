import { useState } from 'preact/hooks';
import type { SeedCostQuote, SeedCostSimulateRequest } from '../api/server-types';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

const scenarioFields = [
  { key: 'transaction_currency', label: 'Currency' },
  { key: 'card_network', label: 'Card network' },
  { key: 'payment_method_type', label: 'Funding' },
  { key: 'card_type', label: 'Card program' },
  { key: 'card_issuing_country', label: 'Issuer country or region' },
] as const;

type ScenarioKey = (typeof scenarioFields)[number]['key'];

/**
 * The scenario the form opens with: real values, sent as shown (a US Visa standard credit card in
 * USD, the default table's reference card). No placeholders: a field looks filled only when it is,
 * and an emptied field is priced as "any" and said so.
 */
const initialScenario: Readonly<Record<ScenarioKey, string>> = {
  transaction_currency: 'USD',
  card_network: 'visa',
  payment_method_type: 'credit',
  card_type: 'standard',
  card_issuing_country: 'us',
};

/** The scenario as priced, in words: "200 USD, visa, credit, standard, issuer us" (an empty field: "any …"). */
function scenarioText(amount: number, scenario: Readonly<Record<ScenarioKey, string>>): string {
  const part = (key: ScenarioKey, any: string) => (scenario[key] === '' ? any : scenario[key]);
  return [
    `${amount}${scenario.transaction_currency === '' ? ' (any currency)' : ` ${scenario.transaction_currency}`}`,
    part('card_network', 'any network'),
    part('payment_method_type', 'any funding'),
    part('card_type', 'any program'),
    scenario.card_issuing_country === '' ? 'any issuer' : `issuer ${scenario.card_issuing_country}`,
  ].join(', ');
}

const money = (value: number) => value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 4 : 2);
const bps = (value: number) => value.toFixed(2);

/** Prices one payment per PSP with the seed cost table in effect (POST …/seed-costs/simulate), cheapest first. */
export function SimulateForm(props: { readonly tableVersion: number }) {
  const { api } = useDashboard();
  const [amount, setAmount] = useState('100');
  const [scenario, setScenario] = useState<Record<ScenarioKey, string>>({ ...initialScenario });
  const [psps, setPsps] = useState('');
  const [quotes, setQuotes] = useState<
    { readonly rows: readonly SeedCostQuote[]; readonly tableVersion: number; readonly scenario: string; readonly shown: string } | undefined
  >(undefined);
  const action = useAction();

  const trimmed = Object.fromEntries(scenarioFields.map(({ key }) => [key, scenario[key].trim()])) as Record<ScenarioKey, string>;
  const shown = `${amount.trim()}|${Object.values(trimmed).join('|')}|${psps}`;
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
      setQuotes({
        rows: [...rows].sort((a, b) => a.cost_amount - b.cost_amount),
        tableVersion: props.tableVersion,
        scenario: scenarioText(request.amount, trimmed),
        shown,
      });
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
                aria-describedby="simulate-any-hint"
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
        <p class="hint" id="simulate-any-hint">
          The payment is priced exactly as filled in; an empty card field matches any card, so the PSP's default row prices it.
        </p>
        <FormError error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          Simulate
        </button>
      </form>
      {quotes !== undefined && (
        <div data-testid="simulate-result">
          <p data-testid="simulate-scenario">Priced: {quotes.scenario}.</p>
          {quotes.tableVersion !== props.tableVersion && <p class="hint">The table changed since: simulate again for current prices.</p>}
          {quotes.tableVersion === props.tableVersion && quotes.shown !== shown && (
            <p class="hint">The form changed since: simulate again to price what it shows.</p>
          )}
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
