import type { FastifyInstance, FastifySchema, FastifyRequest } from 'fastify';
import { counterfactualRangeOf } from '../../src/analytics/counterfactual/counterfactual-range.js';
import type { RunCounterfactual } from '../../src/analytics/counterfactual/run-counterfactual.js';
import type { RunPostStepPrice } from '../../src/analytics/counterfactual/run-post-step-price.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { CounterfactualRequest } from '../../src/generated/schema-types.js';
import type { Clock } from '../../src/time/clock.js';
import { ref } from '../http-schemas.js';
import { counterfactualWire } from '../wire/counterfactual-wire.js';
import { postStepPriceWire } from '../wire/post-step-price-wire.js';

export interface AnalyticsCounterfactualDeps {
  readonly runCounterfactual: RunCounterfactual;
  /** A `candidate` body: the price of volume-commitment steering or sticky routing (docs/counterfactual.md). */
  readonly runPostStepPrice: RunPostStepPrice;
  readonly clock: Clock;
  readonly merchantOf: (request: FastifyRequest) => string;
}

/**
 * POST /analytics/counterfactual: estimates, from the credential merchant's logged decisions and
 * their feedback, what a candidate routing configuration would have achieved (docs/counterfactual.md).
 */
export async function analyticsCounterfactualRoutes(app: FastifyInstance, deps: AnalyticsCounterfactualDeps): Promise<void> {
  app.post(
    '/analytics/counterfactual',
    {
      schema: {
        tags: ['Analytics'],
        summary: 'Estimate what a candidate routing configuration would have achieved on logged decisions (IPS, SNIPS, doubly robust)',
        body: ref('CounterfactualRequest'),
        response: { 200: { anyOf: [ref('CounterfactualReport'), ref('PostStepPriceReport')] } },
        // Every field is optional, so the body may be left out too (api/plugins/openapi-responses.ts).
        'x-body-optional': true,
      } as FastifySchema,
      config: { flowType: 'analytics_counterfactual', auth: 'either', merchantFrom: { body: ['merchant_id'] }, minRole: 'member', bodyErrors: 'json' },
      // Every field is optional: no body at all (a zero-length JSON body) asks what `{}` asks.
      preValidation: (request, _reply, done) => {
        if (request.body === undefined) request.body = {};
        done();
      },
    },
    async (request) => {
      const body = request.body as CounterfactualRequest;
      const range = counterfactualRangeOf(body, deps.clock.now());
      if (!range.ok) throw new SwitchyardError('SY_REQUEST_INVALID', { message: range.message });
      if (body.candidate !== undefined) return postStepPrice(deps, body, deps.merchantOf(request), range);
      const report = await deps.runCounterfactual({
        merchantId: deps.merchantOf(request),
        startMs: range.startMs,
        endMs: range.endMs,
        ...(body.bucket_size === undefined ? {} : { bucketSize: body.bucket_size }),
        ...(body.hedging_percent === undefined ? {} : { hedgingPercent: body.hedging_percent }),
        ...(body.elimination_threshold === undefined ? {} : { eliminationThreshold: body.elimination_threshold }),
        ...(body.multi_objective === undefined ? {} : { multiObjective: body.multi_objective }),
        ...(body.margin === undefined ? {} : { margin: body.margin }),
      });
      return counterfactualWire(report);
    },
  );
}

/** The configuration knobs a post-step candidate cannot be combined with. */
const knobs = ['bucket_size', 'hedging_percent', 'elimination_threshold', 'multi_objective', 'margin'] as const;

async function postStepPrice(deps: AnalyticsCounterfactualDeps, body: CounterfactualRequest, merchantId: string, range: { startMs: number; endMs: number }) {
  const mixed = knobs.filter((knob) => body[knob] !== undefined);
  if (mixed.length > 0) {
    throw new SwitchyardError('SY_REQUEST_INVALID', { message: `candidate prices a post-step on the logged decisions; it takes no ${mixed.join(', ')}` });
  }
  const candidate = body.candidate as NonNullable<CounterfactualRequest['candidate']>;
  return postStepPriceWire(await deps.runPostStepPrice({ merchantId, startMs: range.startMs, endMs: range.endMs, candidate }));
}
