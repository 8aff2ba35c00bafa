/** A metric's value in a Prometheus text exposition (GET /metrics), by its full name and labels; NaN when absent. */
export function metricValue(text, name) {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}
