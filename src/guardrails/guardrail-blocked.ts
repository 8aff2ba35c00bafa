import { SwitchyardError } from '../errors/switchyard-error.js';
import type { GuardBlock } from './guard-session.js';

/**
 * A call a guard with action `block` refused: the message and details name the guard and the stage, never
 * the text it matched (that would put the very value the guard protects into the client's logs and ours).
 */
export class GuardrailBlocked extends SwitchyardError {
  constructor(block: GuardBlock) {
    const where = block.stage === 'input' ? 'the request' : 'the answer';
    super('SY_GUARDRAIL_BLOCKED', {
      message: `The "${block.guard}" guardrail blocked ${where}: it holds content this merchant's guardrails refuse (no provider was called for a blocked request).`,
      details: { guard: block.guard, stage: block.stage },
    });
    this.name = 'GuardrailBlocked';
  }
}
