import type { FastifyInstance } from 'fastify';
import type { MerchantProviderCredentials, ProviderCredentialView } from '../../src/credentials/merchant-provider-credentials.js';
import { credentialVariableName, providerCredentialVariables } from '../../src/credentials/provider-credential-variables.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { credentialMerchantOf } from '../plugins/authentication.js';

const tags = ['Provider credentials'];
const guard = { auth: 'either', merchantFrom: 'credential' } as const;
const providerParams = { type: 'object', required: ['provider'], properties: { provider: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,31}$' } } } as const;

const view = {
  type: 'object',
  additionalProperties: false,
  required: ['provider', 'name', 'variables', 'hint', 'key_id', 'created_at_ms', 'updated_at_ms', 'rotated_at_ms'],
  properties: {
    provider: { type: 'string' },
    name: { type: 'string', description: '"default": every call of the provider uses it; another name: only route group candidates that name it' },
    variables: { type: 'array', items: { type: 'string' }, description: 'the variable names stored; values are never returned' },
    hint: { type: 'string', description: 'the last four characters of the key, to tell keys apart ("" for short values)' },
    key_id: { type: 'string', description: 'the key encryption key that sealed it (rotation moves it to the active one)' },
    created_at_ms: { type: 'integer', description: 'when a value was first stored under this provider and name' },
    updated_at_ms: { type: 'integer', description: 'when the value was last replaced' },
    rotated_at_ms: { type: ['integer', 'null'], description: 'when rotate last sealed it under a newer key encryption key (null: never)' },
  },
} as const;

const credentialName = {
  type: 'string',
  pattern: '^[a-z0-9][a-z0-9_-]{0,31}$',
  description:
    'which of the provider\'s credentials (default "default": the one every call uses; another name is used only by route group candidates naming it)',
} as const;

const listBody = {
  type: 'object',
  additionalProperties: false,
  required: ['operator_fallback', 'credentials', 'providers'],
  properties: {
    operator_fallback: { type: 'boolean', description: "false: this merchant's calls never use the operator's credentials" },
    credentials: { type: 'array', items: view },
    providers: {
      type: 'array',
      description:
        'the providers that take merchant credentials, each with the variables PUT accepts (secret: a value never shown, typed into a password field)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['provider', 'variables'],
        properties: {
          provider: { type: 'string' },
          variables: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'required', 'secret'],
              properties: { name: { type: 'string' }, required: { type: 'boolean' }, secret: { type: 'boolean' } },
            },
          },
        },
      },
    },
  },
} as const;

/** What each provider's credentials consist of: the same table PUT checks against. */
const acceptedProviders = Object.entries(providerCredentialVariables).map(([provider, variables]) => ({
  provider,
  variables: variables.map((variable) => ({ name: variable.name, required: variable.required, secret: credentialVariableName.test(variable.name) })),
}));

function wireOf(credential: ProviderCredentialView) {
  return {
    provider: credential.provider,
    name: credential.name,
    variables: credential.variables,
    hint: credential.hint,
    key_id: credential.keyId,
    created_at_ms: credential.createdAtMs,
    updated_at_ms: credential.updatedAtMs,
    rotated_at_ms: credential.rotatedAtMs ?? null,
  };
}

type Service = () => MerchantProviderCredentials;

/** The service, or the 503 that says the operator turned the feature off. */
function serviceOf(credentials: MerchantProviderCredentials | undefined): Service {
  return () => {
    if (credentials === undefined)
      throw new SwitchyardError('SY_PROVIDER_CREDENTIALS_UNCONFIGURED', {
        message: 'merchant provider credentials are off: the operator runs distributed without PROVIDER_CREDENTIAL_KEYS',
      });
    return credentials;
  };
}

async function listOf(service: Service, merchantId: string) {
  const { operatorFallback, credentials } = await service().list(merchantId);
  return { operator_fallback: operatorFallback, credentials: credentials.map(wireOf), providers: acceptedProviders };
}

/**
 * `/provider-credentials`: a merchant's own provider accounts (issue 39). Values go in and are never
 * returned or logged; the gateway and the toolkit use them for the merchant's calls.
 */
export async function providerCredentialRoutes(app: FastifyInstance, deps: { readonly credentials: MerchantProviderCredentials | undefined }): Promise<void> {
  const service = serviceOf(deps.credentials);
  registerListAndSettings(app, service);
  registerProviderCredential(app, service);
  registerRotate(app, service);
}

function registerListAndSettings(app: FastifyInstance, service: Service): void {
  app.get(
    '/provider-credentials',
    {
      schema: {
        tags,
        summary: "The merchant's stored provider credentials (names and hints only) and whether the operator's may be used",
        response: { 200: listBody },
      },
      config: guard,
    },
    async (request) => listOf(service, credentialMerchantOf(request)),
  );

  app.put<{ Body: { operator_fallback: boolean } }>(
    '/provider-credentials',
    {
      schema: {
        tags,
        summary: "Allow or forbid the operator's provider credentials for this merchant's calls",
        body: { type: 'object', additionalProperties: false, required: ['operator_fallback'], properties: { operator_fallback: { type: 'boolean' } } },
        response: { 200: listBody },
      },
      config: guard,
    },
    async (request) => {
      const merchantId = credentialMerchantOf(request);
      await service().setOperatorFallback(merchantId, request.body.operator_fallback);
      return listOf(service, merchantId);
    },
  );
}

function registerProviderCredential(app: FastifyInstance, service: Service): void {
  app.put<{ Params: { provider: string }; Body: { variables: Record<string, unknown>; name?: string } }>(
    '/provider-credentials/:provider',
    {
      schema: {
        tags,
        summary: "Store (replace) the merchant's credentials of one provider, sealed at rest",
        description:
          "variables: the provider's credential variables by their environment names (openai: OPENAI_API_KEY; anthropic: ANTHROPIC_API_KEY; azure: AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT (an Azure host); bedrock: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, optional AWS_SESSION_TOKEN and AWS_REGION; google-ai: GOOGLE_AI_API_KEY; mistral: MISTRAL_API_KEY; huggingface: HUGGINGFACE_API_KEY). A problem is a 400 naming the variable, never echoing its value.",
        params: providerParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['variables'],
          properties: {
            variables: { type: 'object', maxProperties: 8, additionalProperties: { type: 'string', minLength: 1, maxLength: 16384 } },
            name: credentialName,
          },
        },
        response: { 200: view },
      },
      config: guard,
    },
    async (request) => wireOf(await service().put(credentialMerchantOf(request), request.params.provider, request.body.variables, request.body.name)),
  );

  app.delete<{ Params: { provider: string }; Querystring: { name?: string } }>(
    '/provider-credentials/:provider',
    {
      schema: {
        tags,
        summary:
          "Remove one of the merchant's credentials of a provider (the default one: its calls then use the operator's, if allowed; a named one: route group candidates naming it fail until it is stored again)",
        params: providerParams,
        querystring: { type: 'object', properties: { name: credentialName } },
      },
      config: guard,
    },
    async (request, reply) => {
      const { provider } = request.params;
      const name = request.query.name;
      if (!(await service().remove(credentialMerchantOf(request), provider, name)))
        throw new SwitchyardError('SY_PROVIDER_CREDENTIAL_NOT_FOUND', {
          message: `no stored credentials for provider "${provider}"${name === undefined ? '' : ` named "${name}"`}`,
        });
      return reply.code(204).send();
    },
  );
}

function registerRotate(app: FastifyInstance, service: Service): void {
  app.post(
    '/provider-credentials/rotate',
    {
      schema: {
        tags,
        summary: "Seal the merchant's stored credentials again under the active key encryption key (after PROVIDER_CREDENTIAL_KEYS gained a new first key)",
        response: { 200: { type: 'object', additionalProperties: false, required: ['resealed'], properties: { resealed: { type: 'integer', minimum: 0 } } } },
      },
      config: guard,
    },
    async (request) => ({ resealed: await service().rotate(credentialMerchantOf(request)) }),
  );
}
