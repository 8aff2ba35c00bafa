import { useState } from 'preact/hooks';
import { optionalRoute } from '../api/optional-route';
import { AsyncView } from '../components/async-view';
import { useResource } from '../components/use-resource';
import { ConnectorFees, CoverageTiles, IngestionHistory } from '../costs/cost-model-panels';
import { CostSavingsPanel } from '../costs/cost-savings-panel';
import { SeedCostEditor } from '../costs/seed-cost-editor';
import { SimulateForm } from '../costs/simulate-form';
import { useDashboard } from '../session/dashboard-context';

/**
 * Costs: how much of the volume has a fitted fee model (coverage, ingestions, connector fees), the
 * seed cost table that prices PSPs until then (edit, save, reset), a per-PSP price simulator and
 * the savings of cost-aware routing.
 */
export function CostsPage() {
  const { api, session } = useDashboard();
  // Cost ingestion is served only where the service has an analytics store for its rows.
  const model = useResource(
    () =>
      optionalRoute(async () => {
        const [coverage, ingestions, fees] = await Promise.all([api.costs.coverage(), api.costs.ingestions(), api.costs.connectorFees()]);
        return { coverage, ingestions, fees };
      }),
    [session.merchantId],
  );
  // Bumped on every save or reset: the simulator says when its prices came from an older table.
  const [tableVersion, setTableVersion] = useState(0);

  return (
    <>
      <section class="panel" aria-labelledby="coverage-title">
        <h2 id="coverage-title">Cost model coverage</h2>
        <AsyncView resource={model.resource} label="the cost model" onRetry={model.reload}>
          {(answer) =>
            !answer.available ? (
              <p class="state state-empty">Cost ingestion is not served by this service (it runs without an analytics store for settlement rows).</p>
            ) : (
              <>
                <CoverageTiles coverage={answer.data.coverage} />
                <h3>Ingestion history</h3>
                <IngestionHistory ingestions={answer.data.ingestions} />
                <h3>Connector fees</h3>
                <ConnectorFees fees={answer.data.fees} />
              </>
            )
          }
        </AsyncView>
      </section>
      <SeedCostEditor onSaved={() => setTableVersion((version) => version + 1)} />
      <SimulateForm tableVersion={tableVersion} />
      <CostSavingsPanel />
    </>
  );
}
