import { useEffect, useState } from 'preact/hooks';

/**
 * The one time zone every time on the dashboard is shown in: the operator's choice, kept in this
 * browser (localStorage), UTC until they choose. Every time shown names it (a table header, a chart
 * axis, or the time itself), so no time on screen is ever in an unstated zone.
 */

const storageKey = 'switchyard.timeZone';
export const defaultTimeZone = 'UTC';

const listeners = new Set<(zone: string) => void>();

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function storedTimeZone(): string {
  try {
    const stored = localStorage.getItem(storageKey);
    return stored !== null && isTimeZone(stored) ? stored : defaultTimeZone;
  } catch {
    return defaultTimeZone; // storage refused (privacy mode): UTC, as for a first visit
  }
}

let current = storedTimeZone();

/** The zone times are shown in now (an IANA name, or UTC). */
export function timeZone(): string {
  return current;
}

/** Stores the choice; false when storage is refused (privacy mode): it then holds for this tab only. */
function keep(zone: string): boolean {
  try {
    localStorage.setItem(storageKey, zone);
    return true;
  } catch {
    return false;
  }
}

export function setTimeZone(zone: string): void {
  if (!isTimeZone(zone) || zone === current) return;
  current = zone;
  keep(zone);
  for (const listener of listeners) listener(zone);
}

/** The chosen zone, re-rendering the component when the operator picks another. */
export function useTimeZone(): string {
  const [zone, setZone] = useState(current);
  useEffect(() => {
    listeners.add(setZone);
    setZone(current);
    return () => {
      listeners.delete(setZone);
    };
  }, []);
  return zone;
}

/** The zones the picker offers: UTC, this browser's own, then every zone the browser knows. */
export function timeZoneChoices(): string[] {
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([defaultTimeZone, local, current, ...all])];
}

const formats = new Map<string, Intl.DateTimeFormat>();

function partsOf(ms: number, zone: string): Record<string, string> {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
}

/**
 * A server timestamp in ms. Keys and rules carry decision-engine's database format, UTC without a zone
 * (`2026-04-26 10:00:00.123000`); other reads are ISO with `Z`. A zoneless text is read as UTC, never as
 * the browser's local time.
 */
export function serverTimeMs(text: string): number {
  const iso = text.includes('T') ? text : text.replace(' ', 'T');
  return Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`);
}

/** A moment with its zone: `2026-11-29 10:43:12 UTC`. */
export function formatDateTime(ms: number, zone = current): string {
  const p = partsOf(ms, zone);
  return `${p['year']}-${p['month']}-${p['day']} ${p['hour']}:${p['minute']}:${p['second']} ${zone}`;
}

/** A bucket start on a time axis whose title names the zone: `10:40`, or `11-29 10:00` when the range spans days. */
export function formatAxisTime(ms: number, withDate: boolean, zone = current): string {
  const p = partsOf(ms, zone);
  const time = `${p['hour']}:${p['minute']}`;
  return withDate ? `${p['month']}-${p['day']} ${time}` : time;
}
