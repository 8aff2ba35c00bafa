/**
 * Paths the root logger censors. One list, so a new credential header or field is added once.
 * A unit test proves each is redacted.
 */
export const redactPaths: readonly string[] = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-admin-secret"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-admin-secret"]',
  'password',
  '*.password',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'token',
  '*.token',
  'jwt',
  'secret',
  '*.secret',
  'providerKey',
  '*.providerKey',
  // ioredis attaches the failed command to its errors: a refused AUTH carries the user and password.
  'err.command.args',
  'error.command.args',
];
