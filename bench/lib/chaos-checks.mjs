// What the chaos bench checks once the system has drained: acknowledged decisions and feedback in
// ClickHouse exactly once, batch items each with one final outcome, spend counters against the
// recorded costs, budgets and rpm limits held; and, per fault, the errors clients saw and the time
// to recover.
import { Admin, FetchIsolationLevels, ListOffsetTimestamps } from '@platformatic/kafka';

/** Rows of a ClickHouse query over HTTP (JSONEachRow). Identifiers are checked by the caller. */
export async function clickhouseRows(url, query) {
  const response = await fetch(`${url}/?output_format_json_quote_64bit_integers=0`, {
    method: 'POST',
    body: `${query} FORMAT JSONEachRow`,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`ClickHouse ${response.status}: ${text.slice(0, 300)}`);
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

/** Messages a consumer group has not committed yet over `topicNames` (0: the group handled everything on the broker). */
export async function groupLag(admin, groupId, topicNames) {
  const metadata = await admin.metadata({ topics: [...topicNames] });
  const partitionsOf = (topic) => Array.from({ length: metadata.topics.get(topic)?.partitionsCount ?? 0 }, (_, partition) => partition);
  const [ends, groups] = await Promise.all([
    admin.listOffsets({
      topics: topicNames.map((name) => ({
        name,
        partitions: partitionsOf(name).map((partitionIndex) => ({ partitionIndex, timestamp: ListOffsetTimestamps.LATEST })),
      })),
      isolationLevel: FetchIsolationLevels.READ_COMMITTED,
    }),
    admin.listConsumerGroupOffsets({ groups: [{ groupId, topics: topicNames.map((name) => ({ name, partitionIndexes: partitionsOf(name) })) }] }),
  ]);
  const committed = new Map();
  for (const topic of groups.find((group) => group.groupId === groupId)?.topics ?? []) {
    for (const partition of topic.partitions)
      committed.set(`${topic.name}#${partition.partitionIndex}`, partition.committedOffset < 0n ? 0n : partition.committedOffset);
  }
  let lag = 0n;
  for (const topic of ends)
    for (const partition of topic.partitions) lag += partition.offset - (committed.get(`${topic.name}#${partition.partitionIndex}`) ?? 0n);
  return Number(lag);
}

export function kafkaAdmin(brokers) {
  return new Admin({ clientId: 'chaos-bench-admin', bootstrapBrokers: brokers.split(','), retries: 2 });
}

/** Payment ids acknowledged but absent (lost) or present more than once (duplicated) for one flow type. */
export async function exactlyOnce(clickhouseUrl, database, merchant, flowType, acknowledged) {
  const rows = await clickhouseRows(
    clickhouseUrl,
    `SELECT payment_id, count() AS n, uniqExact(event_id) AS events FROM ${database}.analytics_domain_events FINAL
     WHERE merchant_id = '${merchant}' AND flow_type = '${flowType}' GROUP BY payment_id`,
  );
  const seen = new Map(rows.map((row) => [row.payment_id, Number(row.n)]));
  const lost = acknowledged.filter((paymentId) => !seen.has(paymentId));
  const duplicated = rows.filter((row) => Number(row.n) > 1).map((row) => row.payment_id);
  return { acknowledged: acknowledged.length, stored: rows.length, lost, duplicated };
}

/** Each batch: completed, every index 0..total-1 once with a final status (succeeded or failed: dead-lettered). */
export async function batchOutcomes(baseUrl, apiKey, batches) {
  const report = { batches: batches.length, items: 0, succeeded: 0, deadLettered: 0, lost: [], duplicated: [], unfinished: [] };
  for (const { batchId, total } of batches) {
    const headers = { 'x-api-key': apiKey };
    const progress = await (await fetch(`${baseUrl}/api/batches/${batchId}`, { headers })).json();
    if (progress.status !== 'completed') report.unfinished.push(`${batchId} ${progress.status} pending=${progress.pending}`);
    const results = await (await fetch(`${baseUrl}/api/batches/${batchId}/results?limit=1000`, { headers })).json();
    const byIndex = new Map();
    for (const item of results.items ?? []) byIndex.set(item.index, (byIndex.get(item.index) ?? 0) + 1);
    for (let index = 0; index < total; index++) {
      const count = byIndex.get(index) ?? 0;
      if (count === 0) report.lost.push(`${batchId}:${index}`);
      if (count > 1) report.duplicated.push(`${batchId}:${index}`);
    }
    for (const item of results.items ?? []) {
      report.items += 1;
      if (item.status === 'succeeded') report.succeeded += 1;
      else if (item.status === 'failed') report.deadLettered += 1;
      else report.unfinished.push(`${item.jobId} ${item.status}`);
    }
  }
  return report;
}

/** The key's spend counter (GET /api-key/list) beside the sum of its merchant's llm.call costs in ClickHouse. */
export async function spendOf(baseUrl, clickhouseUrl, database, key) {
  const list = await (await fetch(`${baseUrl}/api-key/list/${key.merchant}`, { headers: key.ownerHeaders })).json();
  const usage = list.find((item) => item.key_id === key.keyId)?.usage;
  const [row] = await clickhouseRows(
    clickhouseUrl,
    `SELECT sum(cost_usd) AS cost, count() AS calls, uniqExact(event_id) AS events FROM ${database}.analytics_llm_calls FINAL WHERE merchant_id = '${key.merchant}'`,
  );
  return {
    spendUsd: Number(usage?.spend_usd ?? Number.NaN),
    reservedUsd: Number(usage?.reserved_usd ?? 0),
    recordedUsd: Number(row?.cost ?? 0),
    calls: Number(row?.calls ?? 0),
  };
}

/**
 * rpm: per UTC minute, the 2xx answers that were certainly admitted in it (sent and answered in the
 * same minute) must not pass the limit; `atMost` also counts those straddling a minute's edge.
 */
export function rpmByMinute(records, kinds, limit) {
  const minutes = new Map();
  for (const record of records) {
    if (!kinds.includes(record.kind) || !record.ok) continue;
    const sent = Math.floor(record.sentAt / 60_000);
    const ended = Math.floor(record.endAt / 60_000);
    for (let minute = sent; minute <= ended; minute++) {
      const entry = minutes.get(minute) ?? { minute: new Date(minute * 60_000).toISOString().slice(11, 16), certain: 0, atMost: 0 };
      entry.atMost += 1;
      if (sent === ended) entry.certain += 1;
      minutes.set(minute, entry);
    }
  }
  const rows = [...minutes.values()];
  return { limit, minutes: rows, violations: rows.filter((row) => row.certain > limit) };
}

/** Load kinds of the bench (the replica's requests alone for an API fault). */
const loadKinds = ['decide', 'feedback', 'chat-rpm', 'chat-rpm-stream', 'chat-budget', 'chat-budget-stream', 'batch-submit'];

/**
 * Per fault: client errors (not our own limit 429s) among requests sent from its start to its
 * recovery, by kind; recovery = the first 2xx of every kind (of that replica, for an API fault)
 * sent after the restart or SIGCONT.
 */
export function faultReport(faults, records, origin) {
  return faults.map((fault) => {
    const replica = /^api-(\d)$/.exec(fault.target)?.[1];
    const relevant = records.filter((record) => replica === undefined || String(record.replica) === replica);
    let recoveredAt = fault.resumedAt ?? fault.startedAt;
    const unrecovered = [];
    for (const kind of loadKinds) {
      const first = relevant
        .filter((record) => record.kind === kind && (record.ok || record.limited) && record.sentAt >= fault.resumedAt)
        .sort((a, b) => a.sentAt - b.sentAt)[0];
      if (first === undefined) {
        if (relevant.some((record) => record.kind === kind && record.sentAt >= fault.resumedAt)) unrecovered.push(kind);
        continue;
      }
      recoveredAt = Math.max(recoveredAt, first.endAt);
    }
    const errors = {};
    for (const record of relevant) {
      if (record.sentAt < fault.startedAt || record.sentAt > recoveredAt || record.ok || record.limited) continue;
      const label = `${record.kind} ${record.error ?? record.status}`;
      errors[label] = (errors[label] ?? 0) + 1;
    }
    return {
      id: fault.id,
      target: fault.target,
      kind: fault.kind,
      window: `${((fault.startedAt - origin) / 1000).toFixed(1)}s–${((fault.resumedAt - origin) / 1000).toFixed(1)}s`,
      readyMs: fault.readyAt - fault.resumedAt,
      recoverMs: recoveredAt - fault.resumedAt,
      unrecovered,
      errors,
    };
  });
}
