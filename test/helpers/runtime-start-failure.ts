import { pino } from 'pino';
import { expect } from 'vitest';
import { createRuntime, type RuntimeNeeds } from '../../cli/create-runtime.js';
import type { Config } from '../../src/config/load-config.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';

/**
 * The error a composition root start with `config` fails with, asserted to be a SwitchyardError
 * (what a start-up explanation such as "REDIS_PASSWORD: …" is); a start that succeeds is closed and
 * fails the test.
 */
export async function runtimeStartFailure(config: Config, needs?: RuntimeNeeds): Promise<SwitchyardError> {
  const error = await createRuntime(config, pino({ level: 'silent' }), needs).then(
    async (runtime) => {
      await runtime.close();
      throw new Error('the runtime started');
    },
    (failure: unknown) => failure,
  );
  expect(SwitchyardError.isInstance(error), String(error)).toBe(true);
  return error as SwitchyardError;
}
