/**
 * The variables a merchant may store for each provider kind (issue 39): the provider's credentials,
 * named as the operator's environment names them, plus the few settings that belong to the
 * merchant's own provider account. Base URLs are not among them: where a merchant's calls go is
 * the operator's decision (a merchant-chosen URL would let it aim the service at internal hosts).
 * Azure's endpoint is the exception, held to Azure's own host names.
 */
export interface CredentialVariable {
  readonly name: string;
  readonly required: boolean;
  /** A value check beyond "a non-empty string"; returns the problem, or undefined. */
  readonly check?: (value: string) => string | undefined;
}

const awsRegion = /^[a-z]{2}(-[a-z]+)+-\d$/;
const azureHost = /^[a-z0-9-]+\.(openai\.azure\.com|cognitiveservices\.azure\.com)$/;

function azureEndpointProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an https URL';
  }
  if (url.protocol !== 'https:' || !azureHost.test(url.hostname) || url.port !== '')
    return 'must be https://<resource>.openai.azure.com (or .cognitiveservices.azure.com)';
  return undefined;
}

export const providerCredentialVariables: Readonly<Record<string, readonly CredentialVariable[]>> = {
  openai: [{ name: 'OPENAI_API_KEY', required: true }],
  anthropic: [{ name: 'ANTHROPIC_API_KEY', required: true }],
  azure: [
    { name: 'AZURE_OPENAI_API_KEY', required: true },
    { name: 'AZURE_OPENAI_ENDPOINT', required: true, check: azureEndpointProblem },
  ],
  bedrock: [
    { name: 'AWS_ACCESS_KEY_ID', required: true },
    { name: 'AWS_SECRET_ACCESS_KEY', required: true },
    { name: 'AWS_SESSION_TOKEN', required: false },
    { name: 'AWS_REGION', required: false, check: (value) => (awsRegion.test(value) ? undefined : 'must be an AWS region such as us-east-1') },
  ],
  'google-ai': [{ name: 'GOOGLE_AI_API_KEY', required: true }],
  mistral: [{ name: 'MISTRAL_API_KEY', required: true }],
  huggingface: [{ name: 'HUGGINGFACE_API_KEY', required: true }],
};

/** Names of operator variables that hold credentials (left out when a merchant forbids the operator's). */
export const credentialVariableName = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;
