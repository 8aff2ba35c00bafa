import type { Detection } from './detection.js';

/**
 * Credential formats with a recognisable shape: model provider keys (Anthropic `sk-ant-…`, OpenAI
 * `sk-…`/`sk-proj-…`), cloud keys (AWS access key ids, `aws_secret_access_key = …`, Google `AIza…` API keys
 * and `ya29.` OAuth tokens), JWTs, bearer tokens, GitHub/Slack/Stripe tokens, PEM private keys, and our own
 * API keys (`DE_` + 64 lowercase hex, src/auth/api-key.ts).
 *
 * One alternation, compiled once; each branch starts with a literal so the engine rejects most positions on
 * the first character. For `Bearer …` and `aws_secret_access_key = …` only the secret itself (group 1) is
 * replaced, so the text around it still reads naturally.
 */
const credentialPattern = new RegExp(
  [
    String.raw`(?<![\w-])sk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{20,}`,
    String.raw`(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`,
    String.raw`(?<![\w-])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}`,
    '(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])',
    String.raw`(?<![\w-])AIza[0-9A-Za-z_-]{35}`,
    String.raw`(?<![\w-])ya29\.[0-9A-Za-z_-]{20,}`,
    String.raw`(?<![\w-])gh[pousr]_[A-Za-z0-9]{36,}`,
    String.raw`(?<![\w-])github_pat_[A-Za-z0-9_]{40,}`,
    String.raw`(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}`,
    String.raw`(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
    String.raw`(?<!\w)DE_[0-9a-f]{64}(?![0-9a-f])`,
    String.raw`-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]{0,8192}?-----END (?:[A-Z]+ )?PRIVATE KEY-----`,
    String.raw`(?<=\b[Bb]earer\s+)([A-Za-z0-9._~+/-]{16,}=*)`,
    String.raw`(?<=\baws_secret_access_key\s*[=:]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  ].join('|'),
  'g',
);

export function detectCredentials(text: string): Detection[] {
  const found: Detection[] = [];
  credentialPattern.lastIndex = 0;
  for (let match = credentialPattern.exec(text); match !== null; match = credentialPattern.exec(text)) {
    found.push({ kind: 'credential', start: match.index, end: match.index + match[0].length });
    if (match[0].length === 0) credentialPattern.lastIndex += 1;
  }
  return found;
}
