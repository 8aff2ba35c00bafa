import { useState } from 'preact/hooks';
import type { RoutingAlgorithmListItem } from '../api/routing-api';
import { AsyncView } from '../components/async-view';
import { useResource } from '../components/use-resource';
import { DebitRoutingToggle, EliminationForm, SuccessRateForm } from '../routing/config-forms';
import { PreviewPanel } from '../routing/preview-panel';
import { RuleBuilder } from '../routing/rule-builder';
import { RuleList } from '../routing/rule-list';
import { useDashboard } from '../session/dashboard-context';

/** Routing: rules (build, preview, activate, delete), success-rate and elimination settings, debit routing. */
export function RoutingPage() {
  const { api, session } = useDashboard();
  const rules = useResource(async () => {
    const [all, active, keys] = await Promise.all([api.routing.list(), api.routing.listActive(), api.routing.routingKeys()]);
    return { all, activeIds: new Set(active.map((rule) => rule.id)), keys: keys.keys };
  }, [session.merchantId]);
  const [previewing, setPreviewing] = useState<RoutingAlgorithmListItem | undefined>(undefined);

  return (
    <AsyncView resource={rules.resource} label="routing rules" onRetry={rules.reload}>
      {({ all, activeIds, keys }) => (
        <>
          <section class="panel" aria-labelledby="rules-title">
            <h2 id="rules-title">Rules</h2>
            {all.length === 0 ? (
              <p class="state state-empty">No rules yet: build one below. Without an active rule, decisions rank every eligible gateway by success rate.</p>
            ) : (
              <RuleList rules={all} activeIds={activeIds} onPreview={setPreviewing} onChanged={rules.reload} />
            )}
          </section>
          {previewing !== undefined && <PreviewPanel key={previewing.id} rule={previewing} keys={keys} />}
          <section class="panel">
            <RuleBuilder
              keys={keys}
              onCreated={(id) => {
                rules.reload();
                void api.routing.list().then((list) => setPreviewing(list.find((rule) => rule.id === id)));
              }}
            />
          </section>
          <div class="grid-2">
            <SuccessRateForm />
            <EliminationForm />
          </div>
          <DebitRoutingToggle />
        </>
      )}
    </AsyncView>
  );
}
