import { analyticsRanges, type AnalyticsRange } from '../api/analytics-api';
import { setTimeZone, timeZoneChoices, useTimeZone } from '../time/time-zone';

const labels: Record<AnalyticsRange, string> = { '15m': 'Last 15 minutes', '1h': 'Last hour', '12h': 'Last 12 hours', '1d': 'Last day', '1w': 'Last week' };

export interface RangePickerProps {
  readonly range: AnalyticsRange;
  onRange(range: AnalyticsRange): void;
  /** Undefined hides the live switch. */
  readonly live?: boolean;
  onLive?(live: boolean): void;
}

/** The look-back window of every analytics read on a page, the time zone its times are shown in, and whether the page refreshes itself. */
export function RangePicker(props: RangePickerProps) {
  return (
    <div class="toolbar">
      <div class="field">
        <label for="range">Range</label>
        <select id="range" value={props.range} onChange={(event) => props.onRange(event.currentTarget.value as AnalyticsRange)}>
          {analyticsRanges.map((range) => (
            <option key={range} value={range}>
              {labels[range]}
            </option>
          ))}
        </select>
      </div>
      <TimeZonePicker />
      {props.live !== undefined && (
        <label class="check">
          <input type="checkbox" checked={props.live} onChange={(event) => props.onLive?.(event.currentTarget.checked)} />
          Update live (every 5 s)
        </label>
      )}
    </div>
  );
}

/** Polling period of live pages: often enough to watch traffic, light enough for the analytics store. */
export const livePollMs = 5_000;

/** Whether a range's buckets span days (their labels then carry the date). */
export const spansDays = (range: AnalyticsRange) => range === '1d' || range === '1w';

/** The operator's time zone for every time on the dashboard (kept in this browser; UTC by default). */
export function TimeZonePicker() {
  const zone = useTimeZone();
  return (
    <div class="field">
      <label for="time-zone">Time zone</label>
      <select id="time-zone" value={zone} onChange={(event) => setTimeZone(event.currentTarget.value)}>
        {timeZoneChoices().map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    </div>
  );
}
