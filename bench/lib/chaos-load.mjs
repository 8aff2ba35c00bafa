// The chaos bench's mixed, bounded, open-loop load: decisions each followed by its feedback, gateway
// calls (plain and streamed) on an rpm-limited key and on a budgeted key, batch submissions. Every
// request is recorded (kind, replica, send and end times, status or network error) for the checks
// and the per-fault error report. Ticks every 100 ms; a kind whose share of the in-flight cap is
// used skips that tick (counted as shed) rather than queueing without bound.

import { decideBody } from './decide-body.mjs';

const tickMs = 100;

/** Our own limit refusals: 429 from the key's rpm or budget (not a fault's doing). */
function isLimit(status, text) {
  return status === 429 && /rate_limit_exceeded|insufficient_quota|TE_04|limit|budget/i.test(text);
}

/**
 * `replicas`: base URLs; `setup`: merchants and keys; `rates`: per second. Returns { records,
 * acknowledged, batches, stop(), done } where `done` settles once every request in flight ended.
 */
export function startLoad({ replicas, setup, rates, timeoutMs = 8_000, maxInFlight = 60 }) {
  const records = [];
  const acknowledged = { decisions: [], feedback: [] };
  const batches = [];
  let inFlight = 0;
  let shed = 0;
  let counter = 0;
  let stopped = false;
  const pending = new Set();
  const startedAt = Date.now();

  async function request(kind, replicaIndex, path, body, headers, { stream = false, id } = {}) {
    const record = { kind, id, replica: replicaIndex + 1, sentAt: Date.now(), endAt: 0, status: 0, error: null, limited: false };
    records.push(record);
    inFlight += 1;
    try {
      const response = await fetch(`${replicas[replicaIndex]}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      record.status = response.status;
      const text = await response.text();
      if (stream && response.status === 200 && !text.includes('[DONE]')) record.error = 'stream-incomplete';
      if (stream && response.status === 200 && /"error"/.test(text.split('\n').find((line) => line.includes('"error"')) ?? ''))
        record.error = 'stream-error-event';
      record.limited = isLimit(response.status, text);
      record.text = response.status >= 300 && !record.limited ? text.slice(0, 200) : undefined;
      return { status: response.status, text };
    } catch (error) {
      record.error = error?.name === 'TimeoutError' ? 'timeout' : (error?.cause?.code ?? error?.code ?? error?.name ?? 'error');
      return { status: 0, text: '' };
    } finally {
      record.endAt = Date.now();
      record.ok = record.status >= 200 && record.status < 300 && record.error === null;
      inFlight -= 1;
    }
  }

  function track(promise) {
    pending.add(promise);
    promise.finally(() => pending.delete(promise));
  }

  const replicaOf = () => counter % replicas.length;

  async function decision() {
    const index = counter++;
    const replica = index % replicas.length;
    const paymentId = `chaos_${startedAt}_${index}`;
    const decided = await request('decide', replica, '/decide-gateway', decideBody(setup.pay.merchant, paymentId), setup.pay.headers, { id: paymentId });
    if (decided.status !== 200) return;
    acknowledged.decisions.push(paymentId);
    const gateway = JSON.parse(decided.text).decided_gateway;
    // The feedback goes to the other replica: the two must agree through Redis and Kafka.
    const status = index % 4 === 0 ? 'FAILURE' : 'CHARGED';
    const fed = await request(
      'feedback',
      (replica + 1) % replicas.length,
      '/update-gateway-score',
      { merchantId: setup.pay.merchant, gateway, paymentId, status },
      setup.pay.headers,
      { id: paymentId },
    );
    if (fed.status === 200) acknowledged.feedback.push(paymentId);
  }

  function chat(kind, key) {
    const index = counter++;
    const stream = index % 2 === 0;
    const body = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: `hello ${index}` }], max_tokens: 200 };
    if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
    return request(
      stream ? `${kind}-stream` : kind,
      index % replicas.length,
      '/v1/chat/completions',
      body,
      { authorization: `Bearer ${key.apiKey}` },
      { stream },
    );
  }

  async function batch() {
    const index = counter++;
    const prompts = Array.from({ length: 8 }, (_, item) => (item === 3 ? `poison ${index}` : `batch ${index} item ${item}`));
    const submitted = await request(
      'batch-submit',
      replicaOf(),
      '/api/batches',
      { prompts, options: { provider: 'openai', model: 'gpt-4o-mini', maxTokens: 50 } },
      { 'x-api-key': setup.batch.apiKey },
    );
    if (submitted.status === 202) batches.push({ batchId: JSON.parse(submitted.text).batchId, total: prompts.length });
  }

  const kinds = [
    { rate: rates.decisions, run: decision },
    { rate: rates.rpmCalls, run: () => chat('chat-rpm', setup.rpm) },
    { rate: rates.budgetCalls, run: () => chat('chat-budget', setup.budget) },
    { rate: rates.batches, run: batch },
  ];
  const credit = kinds.map(() => 0);
  const timer = setInterval(() => {
    if (stopped) return;
    kinds.forEach((kind, index) => {
      credit[index] += (kind.rate * tickMs) / 1000;
      while (credit[index] >= 1) {
        credit[index] -= 1;
        if (inFlight >= maxInFlight) {
          shed += 1;
          continue;
        }
        track(kind.run());
      }
    });
  }, tickMs);

  return {
    records,
    acknowledged,
    batches,
    shed: () => shed,
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
