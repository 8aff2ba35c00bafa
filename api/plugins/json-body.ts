import type { FastifyInstance } from 'fastify';

/**
 * The app's `application/json` body parser: fastify's own (prototype- and constructor-poisoning
 * refused, 400 on a syntax error), except that a zero-length body means "no body".
 *
 * Why: fetch/undici, axios and curl all send `content-type: application/json` with an empty body
 * on bodiless calls (`DELETE /api-key/{id}`, `POST /auth/logout`, `POST /routing/list/{id}`, …),
 * and fastify's parser refuses those with 400 "Body cannot be empty…". A route that takes no body
 * now simply gets none; a route whose schema requires one still answers its usual validation error
 * (the body arrives as `undefined`, which no object schema accepts). Non-JSON content types keep
 * their 415 and malformed JSON its 400 (api/plugins/errors.ts); the decision routes' catch-all
 * parser applies to other content types only, so it is unaffected.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs: 'string' always hands a string; the union is fastify's general parser type.
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
