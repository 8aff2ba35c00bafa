import { call } from './pipeline-harness.js';

export interface DecisionFailure {
  readonly paymentId: string;
  readonly phase: string;
  readonly status: number;
  readonly body: unknown;
}

/**
 * Decision traffic for fault tests: every call gets a fresh payment id; 200s are counted (each is
 * one decision row analytics must end up with), anything else is kept for the assertion message.
 */
export interface DecisionLoad {
  /** Payment ids of decisions answered 200. */
  readonly decided: string[];
  readonly failures: DecisionFailure[];
  /** 200 answers per phase label. */
  readonly byPhase: Map<string, number>;
  /** Makes exactly `count` decisions, `lanes` in flight. */
  run(phase: string, count: number, lanes?: number): Promise<void>;
  /** Keeps deciding while `until` is pending (at most `cap` decisions), then settles as `until` does. */
  during<T>(phase: string, until: Promise<T>, cap: number, lanes?: number): Promise<T>;
}

export function createDecisionLoad(
  baseUrl: string,
  auth: Record<string, string>,
  merchantId: string,
  decide: (merchantId: string, paymentId: string) => unknown,
): DecisionLoad {
  const decided: string[] = [];
  const failures: DecisionFailure[] = [];
  const byPhase = new Map<string, number>();
  let next = 0;

  async function one(phase: string): Promise<void> {
    const paymentId = `${phase}-${next++}`;
    try {
      const response = await call(baseUrl, 'POST', '/decide-gateway', decide(merchantId, paymentId), auth);
      if (response.status === 200) {
        decided.push(paymentId);
        byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);
      } else {
        failures.push({ paymentId, phase, status: response.status, body: response.body });
      }
    } catch (error) {
      failures.push({ paymentId, phase, status: 0, body: error instanceof Error ? error.message : String(error) });
    }
  }

  async function lanesOf(lanes: number, more: () => boolean, phase: string): Promise<void> {
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (more()) await one(phase);
      }),
    );
  }

  return {
    decided,
    failures,
    byPhase,
    async run(phase, count, lanes = 4) {
      let issued = 0;
      await lanesOf(lanes, () => issued++ < count, phase);
    },
    async during(phase, until, cap, lanes = 4) {
      let settled = false;
      // Observed at once (no unhandled rejection while the lanes run), rethrown after them.
      const outcome = until.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      void outcome.then(() => {
        settled = true;
      });
      let issued = 0;
      await lanesOf(lanes, () => !settled && issued++ < cap, phase);
      const result = await outcome;
      if (!result.ok) throw result.error;
      return result.value;
    },
  };
}
