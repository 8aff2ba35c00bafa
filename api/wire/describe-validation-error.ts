import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

/**
 * Turns ajv errors into one sentence that names the offending field, e.g.
 * "paymentInfo: missing field `paymentId`" or "rankingAlgorithm: must be one of SR_BASED_ROUTING, …".
 */
export function describeValidationError(errors: readonly FastifySchemaValidationError[], context: string | undefined): string {
  // An if/then/else schema adds a summary error ("must match then schema") after the one that matters.
  const relevant = errors.length > 1 ? errors.filter((error) => error.keyword !== 'if') : errors;
  const parts = relevant.slice(0, 5).map((error) => {
    const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const where = path === '' ? (context ?? 'body') : path;
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'required':
        return `${where === 'body' ? '' : `${where}: `}missing field \`${String(params['missingProperty'])}\``;
      case 'enum':
        return `${where}: unknown value, expected one of ${(params['allowedValues'] as unknown[]).filter((v) => v !== null).join(', ')}`;
      case 'type':
        return `${where}: invalid type, expected ${String(params['type'])}`;
      default:
        return `${where}: ${error.message ?? 'is invalid'}`;
    }
  });
  return [...new Set(parts)].join('; ');
}
