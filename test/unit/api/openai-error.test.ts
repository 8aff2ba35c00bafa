import { describe, expect, it } from 'vitest';
import { statusOf } from '../../../api/plugins/errors.js';
import { openAiCodedError } from '../../../api/wire/openai-error.js';
import { errorCodes, type ErrorCode } from '../../../src/errors/codes.js';
import { keyLimitExceeded } from '../../../src/governance/key-limit-exceeded.js';
import { UnsupportedChatRequest } from '../../../src/generation/gateway/openai-chat-request.js';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';

describe('OpenAI error wire of the one error table', () => {
  it('gives every code a body, with no detail of a 5xx', () => {
    for (const code of Object.keys(errorCodes) as ErrorCode[]) {
      const status = statusOf(code);
      const { error } = openAiCodedError(new SwitchyardError(code, { message: 'secret detail' }), status);
      if (status >= 500)
        expect(error).toEqual({ message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null });
      else expect(['invalid_request_error', 'requests', 'insufficient_quota']).toContain(error.type);
    }
  });

  it('answers a spent budget as insufficient_quota and a rate as rate_limit_exceeded', () => {
    expect(openAiCodedError(keyLimitExceeded('budget', 60, '1 USD per day'), 429).error).toMatchObject({
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    });
    expect(openAiCodedError(keyLimitExceeded('rpm', 1, 5), 429).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
  });

  it('names the parameter of an unsupported request and the model of an unknown one', () => {
    const unsupported = new UnsupportedChatRequest('only function tools are supported', 'tools[0]');
    expect(statusOf(unsupported.code)).toBe(400);
    expect(openAiCodedError(unsupported, 400).error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_parameter', param: 'tools[0]' });
    expect(openAiCodedError(new SwitchyardError('SY_MODEL_NOT_FOUND'), 404).error).toMatchObject({ code: 'model_not_found', param: 'model' });
  });
});
