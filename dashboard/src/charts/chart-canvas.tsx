import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { seriesColours, type ChartSpec } from './chart-spec';

Chart.register(LineController, LineElement, PointElement, BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Axis labels in plain digits (Chart.js would write a cost of 0.000013 as 1.3E-5). */
const tickFormat = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 3 });

/**
 * Point sizes of one line: small (none past 40 labels), except a point with no data on either side,
 * which a line cannot show (there is no segment to draw), so it gets a visible dot.
 */
function pointRadii(values: readonly (number | null)[], labelCount: number): number[] {
  const base = labelCount > 40 ? 0 : 2;
  return values.map((value, index) => {
    const isolated = value !== null && (values[index - 1] ?? null) === null && (values[index + 1] ?? null) === null;
    return isolated ? 3 : base;
  });
}

function datasetsOf(spec: ChartSpec) {
  return spec.series.map((series, index) => {
    const colour = seriesColours[index % seriesColours.length]!;
    return {
      label: series.label,
      data: [...series.values],
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: 2,
      // A missing value is a gap, never a line drawn through it (nor a drop to 0).
      spanGaps: false,
      pointRadius: pointRadii(series.values, spec.labels.length),
    };
  });
}

/**
 * One Chart.js chart, updated in place when the spec changes (live polling), with animations off
 * so a refresh never moves what the operator is reading. The canvas is an image to assistive
 * technology; its numbers are in the table view next to it.
 */
export function ChartCanvas(props: { readonly spec: ChartSpec; readonly title: string; readonly timeZone: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  const { spec } = props;

  useEffect(() => {
    if (canvas.current === null) return undefined;
    chart.current = new Chart(canvas.current, {
      type: spec.kind,
      data: { labels: [...spec.labels], datasets: datasetsOf(spec) },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { stacked: spec.stacked === true, title: { display: spec.time === true, text: `Time (${props.timeZone})` } },
          y: {
            stacked: spec.stacked === true,
            beginAtZero: true,
            title: { display: true, text: spec.unit },
            ticks: { callback: (value) => (typeof value === 'number' ? tickFormat.format(value) : value) },
          },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [spec.kind, spec.stacked, spec.unit, spec.time, props.timeZone]);

  useEffect(() => {
    const current = chart.current;
    if (current === null) return;
    current.data.labels = [...spec.labels];
    current.data.datasets = datasetsOf(spec);
    current.update('none');
  }, [spec]);

  return (
    <div class="chart-box">
      <canvas ref={canvas} role="img" aria-label={`${props.title}: chart; the same data is in the table view`} />
    </div>
  );
}
