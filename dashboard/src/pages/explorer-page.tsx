import { useState } from 'preact/hooks';
import type { DecideGatewayRequest, DecidedGateway } from '../api/server-types';
import { ChartPanel } from '../charts/chart-panel';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import type { Location } from '../routes';
import { useDashboard } from '../session/dashboard-context';

const rankingAlgorithms = ['SR_BASED_ROUTING', 'PL_BASED_ROUTING', 'NTW_BASED_ROUTING'] as const;
const paymentMethodTypes = ['CARD', 'UPI', 'WALLET', 'NB', 'PAY_LATER'] as const;

interface FormState {
  readonly paymentId: string;
  readonly gateways: string;
  readonly ranking: (typeof rankingAlgorithms)[number];
  readonly elimination: boolean;
  readonly amount: string;
  readonly currency: string;
  readonly country: string;
  readonly paymentMethodType: string;
  readonly paymentMethod: string;
  readonly cardType: string;
  readonly authType: string;
}

function bodyOf(form: FormState, merchantId: string): DecideGatewayRequest {
  return {
    merchantId,
    eligibleGatewayList: form.gateways
      .split(',')
      .map((gateway) => gateway.trim())
      .filter((gateway) => gateway !== ''),
    rankingAlgorithm: form.ranking,
    eliminationEnabled: form.elimination,
    paymentInfo: {
      paymentId: form.paymentId,
      amount: Number(form.amount),
      currency: form.currency,
      country: form.country,
      paymentType: 'ORDER_PAYMENT',
      paymentMethodType: form.paymentMethodType,
      paymentMethod: form.paymentMethod,
      cardType: form.cardType,
      authType: form.authType,
    },
  } as DecideGatewayRequest;
}

function Field(props: { readonly id: string; readonly label: string; readonly value: string; onInput(value: string): void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} value={props.value} onInput={(event) => props.onInput(event.currentTarget.value)} />
    </div>
  );
}

/** What the decision did, step by step: eligible list, the rule's narrowing, the scores, the pick. */
function DecisionTrace(props: { readonly request: DecideGatewayRequest; readonly decided: DecidedGateway }) {
  const { decided, request } = props;
  const scores = Object.entries(decided.gateway_priority_map ?? {}).sort((a, b) => b[1] - a[1]);
  const ruleGateways = decided.priority_logic_output?.gws ?? null;
  const steps = [
    { step: 'Eligible gateways (request)', value: (request.eligibleGatewayList ?? []).join(', ') || 'none given' },
    {
      step: 'Routing rule',
      value: decided.priority_logic_tag === null ? 'no active rule applied' : `“${decided.priority_logic_tag}” → ${ruleGateways?.join(', ') ?? ''}`,
    },
    { step: 'Routing approach', value: decided.routing_approach },
    { step: 'Ranked by score', value: scores.map(([gateway, score]) => `${gateway} ${score.toFixed(4)}`).join(' > ') || 'no scores' },
    { step: 'Decided gateway', value: decided.decided_gateway },
    { step: 'Dimension', value: [decided.routing_dimension, decided.routing_dimension_level].filter((part) => part !== null).join(' / ') || '—' },
  ];
  for (const [filter, removed] of Object.entries(decided.filter_wise_gateways ?? {}))
    steps.splice(1, 0, { step: `Filter ${filter}`, value: `removed ${(removed as string[]).join(', ') || 'nothing'}` });
  return (
    <>
      <section class="panel" aria-labelledby="decision-title" data-testid="decision-result">
        <h2 id="decision-title">
          Decided: <span data-testid="decided-gateway">{decided.decided_gateway}</span>
        </h2>
        <table>
          <caption>Filter and scoring trace</caption>
          <tbody>
            {steps.map((row) => (
              <tr key={row.step}>
                <th scope="row">{row.step}</th>
                <td>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <details>
          <summary>Full answer</summary>
          <pre class="json">{JSON.stringify(decided, null, 2)}</pre>
        </details>
      </section>
      <ChartPanel
        id="decision-scores"
        title="Gateway scores of this decision"
        spec={{
          kind: 'bar',
          unit: 'score',
          labels: scores.map(([gateway]) => gateway),
          series: [{ label: 'score', values: scores.map(([, score]) => score) }],
        }}
      />
    </>
  );
}

/** Decision explorer: a /decide-gateway body as a form, replayed against the live service. */
export function ExplorerPage(props: { readonly location: Location }) {
  const { api, session } = useDashboard();
  const params = props.location.params;
  const original = params.get('payment_id');
  const [form, setForm] = useState<FormState>({
    paymentId: original !== null && original !== '' ? `${original}-replay-${Date.now().toString(36)}` : `explore-${Date.now().toString(36)}`,
    gateways: params.get('gateways') || 'stripe, adyen, checkout',
    ranking: 'SR_BASED_ROUTING',
    elimination: true,
    amount: '100',
    currency: 'USD',
    country: 'US',
    paymentMethodType: 'CARD',
    paymentMethod: 'CREDIT',
    cardType: 'CREDIT',
    authType: 'THREE_DS',
  });
  const [result, setResult] = useState<{ request: DecideGatewayRequest; decided: DecidedGateway } | undefined>(undefined);
  const action = useAction();
  const set = (patch: Partial<FormState>) => setForm({ ...form, ...patch });
  const submit = (event: Event) => {
    event.preventDefault();
    const request = bodyOf(form, session.merchantId);
    void action.run(async () => {
      setResult(undefined);
      setResult({ request, decided: await api.routing.decide(request) });
    });
  };

  return (
    <>
      <form class="panel" onSubmit={submit} aria-labelledby="replay-title">
        <h2 id="replay-title">Decision request</h2>
        <p class="hint">This is a real decision: it is recorded for the payment id below (and teaches nothing until feedback arrives).</p>
        <div class="row">
          <Field id="x-payment" label="Payment id" value={form.paymentId} onInput={(paymentId) => set({ paymentId })} />
          <Field id="x-gateways" label="Eligible gateways (comma-separated)" value={form.gateways} onInput={(gateways) => set({ gateways })} />
          <div class="field">
            <label for="x-ranking">Ranking algorithm</label>
            <select id="x-ranking" value={form.ranking} onChange={(event) => set({ ranking: event.currentTarget.value as FormState['ranking'] })}>
              {rankingAlgorithms.map((ranking) => (
                <option key={ranking}>{ranking}</option>
              ))}
            </select>
          </div>
          <label class="check">
            <input type="checkbox" checked={form.elimination} onChange={(event) => set({ elimination: event.currentTarget.checked })} />
            Elimination enabled
          </label>
        </div>
        <div class="row">
          <Field id="x-amount" label="Amount" value={form.amount} onInput={(amount) => set({ amount })} />
          <Field id="x-currency" label="Currency" value={form.currency} onInput={(currency) => set({ currency })} />
          <Field id="x-country" label="Country" value={form.country} onInput={(country) => set({ country })} />
          <div class="field">
            <label for="x-pmt">Payment method type</label>
            <select id="x-pmt" value={form.paymentMethodType} onChange={(event) => set({ paymentMethodType: event.currentTarget.value })}>
              {paymentMethodTypes.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          </div>
          <Field id="x-pm" label="Payment method" value={form.paymentMethod} onInput={(paymentMethod) => set({ paymentMethod })} />
          <Field id="x-card" label="Card type" value={form.cardType} onInput={(cardType) => set({ cardType })} />
          <Field id="x-auth" label="Auth type" value={form.authType} onInput={(authType) => set({ authType })} />
        </div>
        <details>
          <summary>Request body</summary>
          <pre class="json">{JSON.stringify(bodyOf(form, session.merchantId), null, 2)}</pre>
        </details>
        <FormError error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          Decide
        </button>
      </form>
      {result !== undefined && <DecisionTrace request={result.request} decided={result.decided} />}
    </>
  );
}
