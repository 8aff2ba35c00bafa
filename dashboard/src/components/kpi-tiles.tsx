export interface Kpi {
  readonly label: string;
  readonly value: string;
  readonly detail?: string;
}

/** Headline numbers, as a description list so each value is read with its label. */
export function KpiTiles(props: { readonly tiles: readonly Kpi[]; readonly label: string }) {
  return (
    <dl class="kpis" aria-label={props.label}>
      {props.tiles.map((tile) => (
        <div class="kpi" key={tile.label}>
          <dt>{tile.label}</dt>
          <dd>
            <span class="kpi-value">{tile.value}</span>
            {tile.detail !== undefined && <span class="kpi-detail">{tile.detail}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;
