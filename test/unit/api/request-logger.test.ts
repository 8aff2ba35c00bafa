import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { deferredChildLoggerFactory } from '../../../api/request-logger.js';

/** A pino root writing into an array of parsed lines (times dropped, so two runs compare equal). */
function rootWithLines(level: string): { root: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const { time: _time, responseTime: _responseTime, ...rest } = JSON.parse(line) as Record<string, unknown>;
        lines.push(rest);
      }
      done();
    },
  });
  return { root: pino({ level }, destination), lines };
}

/** Counts the children made of `logger` (what the deferred logger is there to avoid). */
function countingChildren(logger: pino.Logger): { logger: FastifyBaseLogger; made: () => number } {
  let made = 0;
  const original = logger.child.bind(logger);
  logger.child = ((bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => {
    made += 1;
    return original(bindings, options);
  }) as unknown as typeof logger.child;
  return { logger, made: () => made };
}

describe('the deferred per-request logger', () => {
  it('makes no child while nothing is written, nor for a line below the level', () => {
    const { root, lines } = rootWithLines('info');
    const counted = countingChildren(root);
    const log = deferredChildLoggerFactory(counted.logger, { reqId: 'r1' }, {});
    log.debug({ skipped: true }, 'below the level');
    log.trace('below too');
    expect(log.level).toBe('info');
    expect(counted.made()).toBe(0);
    expect(lines).toEqual([]);
    log.info({ merchantId: 'm1' }, 'decision refused');
    expect(counted.made()).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ level: 30, reqId: 'r1', merchantId: 'm1', msg: 'decision refused' })]);
  });

  it('makes a real child at once when the route sets its own level or serializers', () => {
    const { root } = rootWithLines('info');
    const counted = countingChildren(root);
    deferredChildLoggerFactory(counted.logger, { reqId: 'r1' }, { level: 'debug' });
    expect(counted.made()).toBe(1);
  });

  it('writes the same lines through fastify as its default child logger, nested children and level changes included', async () => {
    const run = async (factory: typeof deferredChildLoggerFactory | undefined) => {
      const { root, lines } = rootWithLines('warn');
      const app = Fastify({ loggerInstance: root, ...(factory === undefined ? {} : { childLoggerFactory: factory }), genReqId: () => 'req-1' });
      app.get('/logs', async (request) => {
        request.log.info('below warn: dropped');
        request.log.warn({ merchantId: 'm1' }, 'decision refused');
        request.log.child({ component: 'inner' }).error('nested');
        const before = request.log.level;
        request.log.level = 'debug';
        request.log.debug('now on');
        return { before, after: request.log.level };
      });
      const response = await app.inject({ method: 'GET', url: '/logs' });
      await app.close();
      return { body: response.json() as unknown, lines };
    };
    const deferred = await run(deferredChildLoggerFactory);
    expect(deferred).toEqual(await run(undefined));
    expect(deferred.body).toEqual({ before: 'warn', after: 'debug' });
    expect(deferred.lines.map((line) => [line['level'], line['reqId'], line['msg']])).toEqual([
      [40, 'req-1', 'decision refused'],
      [50, 'req-1', 'nested'],
      [20, 'req-1', 'now on'],
      // fastify's own line, written through request.log once the request's level let it through.
      [30, 'req-1', 'request completed'],
    ]);
  });
});
