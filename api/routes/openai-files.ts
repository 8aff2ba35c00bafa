import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { FileService } from '../../src/generation/files/file-service.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { boundaryOf, MultipartError, parseMultipartForm } from '../wire/multipart-form.js';
import { openAiFileObject, openAiList } from '../wire/openai-file.js';
import { ref } from '../http-schemas.js';
import { gatewayGuard } from './gateway-route-config.js';

export interface OpenAiFileRouteDeps {
  readonly files: FileService;
}

const tags = ['OpenAI Files and Batches'];

/** 1 MiB: room for the multipart framing and the form's text fields around a file of the largest size. */
const multipartOverheadBytes = 1_048_576;

const fileIdParams = {
  type: 'object',
  required: ['fileId'],
  properties: { fileId: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;

// Unknown parameters are ignored, as OpenAI ignores them (a `merchant_id` still must name the credential's merchant).
const listQuery = {
  type: 'object',
  properties: {
    after: { type: 'string', minLength: 1, maxLength: 128 },
    limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 10_000 },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
    purpose: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

type FileParams = { Params: { fileId: string } };

function invalid(message: string, param: string): SwitchyardError {
  return new SwitchyardError('SY_FILE_INVALID', { message, details: { param } });
}

/** The upload's form: a `file` part and a `purpose` field (and `expires_after[seconds]`, when sent). */
function uploadOf(request: FastifyRequest): { filename: string; purpose: string; content: Buffer; expiresAfterS?: number } {
  const boundary = boundaryOf(request.headers['content-type']);
  if (boundary === undefined || !Buffer.isBuffer(request.body)) throw invalid('send the file as multipart/form-data with a boundary', 'file');
  let form: ReturnType<typeof parseMultipartForm>;
  try {
    form = parseMultipartForm(request.body, boundary);
  } catch (error) {
    if (error instanceof MultipartError) throw invalid(error.message, 'file');
    throw error;
  }
  const file = form.files.get('file');
  if (file === undefined) throw invalid("the form has no 'file' part", 'file');
  const purpose = form.fields.get('purpose');
  if (purpose === undefined || purpose === '') throw invalid("the form has no 'purpose' field", 'purpose');
  const expiresText = form.fields.get('expires_after[seconds]');
  const anchor = form.fields.get('expires_after[anchor]');
  if (anchor !== undefined && anchor !== 'created_at') throw invalid('expires_after[anchor] must be "created_at"', 'expires_after');
  let expiresAfterS: number | undefined;
  if (expiresText !== undefined) {
    // OpenAI's bounds: one hour to 30 days.
    expiresAfterS = Number(expiresText);
    if (!Number.isInteger(expiresAfterS) || expiresAfterS < 3600 || expiresAfterS > 2_592_000)
      throw invalid('expires_after[seconds] must be an integer from 3600 to 2592000', 'expires_after');
  }
  // A path in the name is kept as text only; the stored file's id is ours.
  const filename = file.filename.slice(0, 255) || 'upload.jsonl';
  return { filename, purpose, content: file.content, ...(expiresAfterS !== undefined ? { expiresAfterS } : {}) };
}

function registerUpload(app: FastifyInstance, deps: OpenAiFileRouteDeps): void {
  // The upload is read whole (no multipart package is installed), bounded by FILES_MAX_BYTES.
  const bodyLimit = deps.files.maxBytes + multipartOverheadBytes;
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
  app.post(
    '/v1/files',
    {
      bodyLimit,
      schema: {
        tags,
        summary:
          "Upload a file (multipart/form-data: `file`, `purpose`) for the credential's merchant; a `batch` file is checked line by line (unique custom_id, method POST, a url of /v1/chat/completions, /v1/responses or /v1/embeddings); larger than FILES_MAX_BYTES: 413",
        consumes: ['multipart/form-data'],
        response: { 200: ref('OpenAiFile') },
      },
      // An upload counts as one request for the key's rpm and concurrency; it spends no tokens.
      config: { ...gatewayGuard, keyLimits: { kind: 'llm' } },
    },
    async (request) => {
      const upload = uploadOf(request);
      const file = await deps.files.upload({ merchantId: credentialMerchantOf(request), ...upload });
      request.log.info({ fileId: file.id, bytes: file.bytes, purpose: file.purpose }, 'file uploaded');
      return openAiFileObject(file);
    },
  );
}

function registerReads(app: FastifyInstance, deps: OpenAiFileRouteDeps): void {
  app.get<{ Querystring: { after?: string; limit: number; order: 'asc' | 'desc'; purpose?: string } }>(
    '/v1/files',
    {
      schema: {
        tags,
        summary: "The merchant's files, newest first (OpenAI's cursor pages: `after`, `limit`, `order`, `purpose`)",
        querystring: listQuery,
        response: { 200: ref('OpenAiFileList') },
      },
      config: gatewayGuard,
    },
    async (request) => {
      const page = await deps.files.list(credentialMerchantOf(request), request.query);
      return openAiList(page.data.map(openAiFileObject), page.hasMore);
    },
  );
  app.get<FileParams>(
    '/v1/files/:fileId',
    { schema: { tags, summary: 'A File object of the merchant', params: fileIdParams, response: { 200: ref('OpenAiFile') } }, config: gatewayGuard },
    async (request) => openAiFileObject(await deps.files.retrieve(credentialMerchantOf(request), request.params.fileId)),
  );
  app.get<FileParams>(
    '/v1/files/:fileId/content',
    { schema: { tags, summary: "A file's bytes (batch inputs and outputs are JSONL)", params: fileIdParams }, config: gatewayGuard },
    async (request, reply) => {
      const { file, content } = await deps.files.content(credentialMerchantOf(request), request.params.fileId);
      const jsonl = file.filename.endsWith('.jsonl') || file.purpose === 'batch' || file.purpose === 'batch_output';
      return reply.type(jsonl ? 'application/jsonl' : 'application/octet-stream').send(Buffer.from(content));
    },
  );
  app.delete<FileParams>(
    '/v1/files/:fileId',
    { schema: { tags, summary: 'Delete a file of the merchant', params: fileIdParams, response: { 200: ref('OpenAiFileDeleted') } }, config: gatewayGuard },
    async (request) => {
      await deps.files.delete(credentialMerchantOf(request), request.params.fileId);
      return { id: request.params.fileId, object: 'file', deleted: true };
    },
  );
}

/**
 * OpenAI's Files API (`/v1/files`): upload, list, retrieve, content, delete, per merchant (another
 * merchant's file id is answered 404 like an unknown one), with OpenAI's shapes and error bodies,
 * so `client.files.*` of the official SDKs work against the gateway.
 */
export async function openAiFileRoutes(app: FastifyInstance, deps: OpenAiFileRouteDeps): Promise<void> {
  registerUpload(app, deps);
  registerReads(app, deps);
}
