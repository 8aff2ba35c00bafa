/** A secret sealed by envelope encryption (src/credentials/credential-vault.ts): every field base64 but the key id. */
export interface SealedSecret {
  /** Id of the key encryption key that wrapped the data key. */
  readonly kid: string;
  readonly wrappedKey: string;
  readonly wrapIv: string;
  readonly wrapTag: string;
  readonly iv: string;
  readonly tag: string;
  readonly ciphertext: string;
}

/** One provider's credentials of a merchant, sealed (src/credentials/credential-vault.ts). */
export interface StoredProviderCredential {
  /** The variables' values as one JSON object, sealed for `<merchant>|<provider>`. */
  readonly sealed: SealedSecret;
  /** The variable names stored (never their values). */
  readonly variables: readonly string[];
  /** The last four characters of the first secret, so an operator can tell keys apart. */
  readonly hint: string;
  readonly updatedAtMs: number;
  /** When the first value under this name was stored (absent in records stored before names existed: `updatedAtMs`). */
  readonly createdAtMs?: number;
  /** When `rotate` last sealed it again under a newer key encryption key (absent: never). */
  readonly rotatedAtMs?: number;
}

/**
 * The `providerCredentials` config of a merchant: its own provider accounts, keyed by
 * {@link credentialKey} (the provider kind for its default credential, `<provider>:<name>` for a
 * named one a route group candidate may pick).
 */
export interface ProviderCredentialsConfig {
  /** False: the merchant's calls never use the operator's credentials, only its own. */
  readonly operatorFallback: boolean;
  readonly providers: Readonly<Record<string, StoredProviderCredential>>;
}

/** The name of a provider's credential that every call of that provider uses (unnamed in the API). */
export const defaultCredentialName = 'default';

/** How a credential name is spelled (lower case, so `Backup` and `backup` cannot both exist). */
export const credentialNamePattern = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * Where a credential is kept in {@link ProviderCredentialsConfig.providers}: the default one under
 * the provider kind (as stored before names existed), a named one under `<provider>:<name>`.
 */
export function credentialKey(provider: string, name: string = defaultCredentialName): string {
  return name === defaultCredentialName ? provider : `${provider}:${name}`;
}

/** The provider and name of a stored key (the inverse of {@link credentialKey}). */
export function credentialOfKey(key: string): { readonly provider: string; readonly name: string } {
  const at = key.indexOf(':');
  return at < 0 ? { provider: key, name: defaultCredentialName } : { provider: key.slice(0, at), name: key.slice(at + 1) };
}
