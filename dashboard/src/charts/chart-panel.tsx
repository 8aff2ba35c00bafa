import { useState } from 'preact/hooks';
import { DataTable } from '../components/data-table';
import { ChartCanvas } from './chart-canvas';
import type { ChartSpec } from './chart-spec';
import { useTimeZone } from '../time/time-zone';

export interface ChartPanelProps {
  readonly title: string;
  readonly spec: ChartSpec;
  readonly id: string;
}

const formatValue = (value: number | null) =>
  value === null ? '—' : Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');

/** A titled chart with a Chart / Table switch; the table lists every point the chart draws. */
export function ChartPanel(props: ChartPanelProps) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const { spec } = props;
  const zone = useTimeZone();
  const rows = spec.labels.map((label, index) => ({ label, values: spec.series.map((series) => series.values[index] ?? null) }));
  const labelHeader = spec.time === true ? `Time (${zone})` : 'Label';
  const empty = spec.labels.length === 0 || spec.series.length === 0;
  return (
    <section class="panel chart-panel" aria-labelledby={`${props.id}-title`} data-testid={props.id}>
      <header class="panel-header">
        <h2 id={`${props.id}-title`}>{props.title}</h2>
        {spec.time === true && <span class="panel-note">Times in {zone}</span>}
        <div class="segmented" role="group" aria-label={`${props.title} view`}>
          <button type="button" aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
            Chart
          </button>
          <button type="button" aria-pressed={view === 'table'} onClick={() => setView('table')}>
            Table
          </button>
        </div>
      </header>
      {empty ? (
        <p class="state state-empty">No data in this range yet.</p>
      ) : view === 'chart' ? (
        <ChartCanvas spec={spec} title={props.title} timeZone={zone} />
      ) : (
        <DataTable
          caption={spec.time === true ? `${props.title} (${spec.unit}; times in ${zone})` : `${props.title} (${spec.unit})`}
          columns={[
            { header: labelHeader, cell: (row: (typeof rows)[number]) => row.label },
            ...spec.series.map((series, index) => ({
              header: series.label,
              numeric: true,
              cell: (row: (typeof rows)[number]) => formatValue(row.values[index] ?? null),
            })),
          ]}
          rows={rows}
          rowKey={(row, index) => `${row.label}-${index}`}
          // One page holds every bucket of the presets (1 d: 25 hours), so a window reads at a glance.
          pageSize={30}
        />
      )}
    </section>
  );
}
