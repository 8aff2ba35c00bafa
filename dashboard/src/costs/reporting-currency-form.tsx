import { useState } from 'preact/hooks';
import type { ReportingCurrencySetting } from '../api/server-types';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

interface RateDraft {
  readonly currency: string;
  readonly rate: string;
  readonly asOf: string;
}

/** One row per currency with savings or a saved rate (never the reporting currency itself), in that order. */
function draftOf(setting: ReportingCurrencySetting, seen: readonly string[], reporting: string): RateDraft[] {
  const saved = new Map(setting.rates.map((rate) => [rate.currency, rate]));
  const codes = [...new Set([...seen, ...saved.keys()])].filter((code) => code !== '' && code !== reporting);
  return codes.map((currency) => {
    const rate = saved.get(currency);
    return { currency, rate: rate?.rate !== undefined ? String(rate.rate) : '', asOf: rate?.as_of ?? '' };
  });
}

/**
 * Sets or clears the merchant's reporting currency (PUT/DELETE …/reporting-currency): the code and,
 * per currency seen in the savings, what one unit of it is worth in the reporting currency and the
 * date that rate holds at. A row left empty is not sent (that currency is then shown unconverted);
 * a half-filled one is sent as is, so the API says in words what is missing.
 */
export function ReportingCurrencyForm(props: { readonly setting: ReportingCurrencySetting; readonly seen: readonly string[]; readonly onChanged: () => void }) {
  const { api } = useDashboard();
  const [currency, setCurrency] = useState(props.setting.currency ?? '');
  const [rates, setRates] = useState<RateDraft[]>(() => draftOf(props.setting, props.seen, props.setting.currency ?? ''));
  const [other, setOther] = useState<RateDraft>({ currency: '', rate: '', asOf: '' });
  const action = useAction();
  const code = currency.trim().toUpperCase();
  const shown = rates.filter((row) => row.currency !== code);

  const submit = (event: Event) => {
    event.preventDefault();
    const rows = [...shown, other].filter((row) => row.currency.trim() !== '' && (row.rate.trim() !== '' || row.asOf.trim() !== ''));
    void action.run(async () => {
      await api.costs.saveReportingCurrency({
        currency: currency.trim(),
        rates: rows.map((row) => ({
          currency: row.currency.trim(),
          as_of: row.asOf.trim(),
          ...(row.rate.trim() !== '' ? { rate: Number(row.rate.trim()) } : {}),
        })),
      });
      setOther({ currency: '', rate: '', asOf: '' });
      props.onChanged();
    });
  };
  const clear = () =>
    void action.run(async () => {
      await api.costs.clearReportingCurrency();
      setCurrency('');
      props.onChanged();
    });
  const update = (index: number, change: Partial<RateDraft>) => setRates(rates.map((row, at) => (at === index ? { ...row, ...change } : row)));

  // No accessible name on the form: the panel's "Currency" picker must stay the only field so labelled.
  return (
    <form onSubmit={submit} data-testid="reporting-currency-form">
      <h3>Reporting currency</h3>
      <p class="hint">
        Savings in every currency, converted at your own rates (rates are never fetched): say what one unit of each currency is worth in the reporting currency,
        and the date that rate holds at. A currency without a rate is shown apart, unconverted.
      </p>
      <div class="row">
        <div class="field">
          <label for="reporting-currency-code">Report in (ISO 4217 code)</label>
          <input id="reporting-currency-code" value={currency} maxLength={3} size={5} onInput={(event) => setCurrency(event.currentTarget.value)} />
        </div>
      </div>
      {[...rates.entries()]
        .filter(([, row]) => row.currency !== code)
        .map(([index, row]) => (
          <div class="row" key={row.currency}>
            <div class="field">
              <label for={`rate-${row.currency}`}>{code === '' ? `1 ${row.currency} is worth` : `1 ${row.currency} in ${code}`}</label>
              <input id={`rate-${row.currency}`} inputMode="decimal" value={row.rate} onInput={(event) => update(index, { rate: event.currentTarget.value })} />
            </div>
            <div class="field">
              <label for={`rate-${row.currency}-as-of`}>{row.currency} rate as of</label>
              <input id={`rate-${row.currency}-as-of`} type="date" value={row.asOf} onInput={(event) => update(index, { asOf: event.currentTarget.value })} />
            </div>
          </div>
        ))}
      <div class="row">
        <div class="field">
          <label for="rate-other-currency">Other ISO 4217 code</label>
          <input
            id="rate-other-currency"
            maxLength={3}
            size={5}
            value={other.currency}
            onInput={(event) => setOther({ ...other, currency: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="rate-other">Its rate</label>
          <input id="rate-other" inputMode="decimal" value={other.rate} onInput={(event) => setOther({ ...other, rate: event.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="rate-other-as-of">Its rate as of</label>
          <input id="rate-other-as-of" type="date" value={other.asOf} onInput={(event) => setOther({ ...other, asOf: event.currentTarget.value })} />
        </div>
      </div>
      <FormError error={action.error} />
      <div class="row">
        <button type="submit" class="primary" disabled={action.busy}>
          Save reporting currency
        </button>
        {props.setting.currency !== null && (
          <button type="button" class="danger" disabled={action.busy} onClick={clear}>
            Clear reporting currency
          </button>
        )}
      </div>
    </form>
  );
}
