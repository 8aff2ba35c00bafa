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
}

/** The `providerCredentials` config of a merchant: its own provider accounts, by provider kind. */
export interface ProviderCredentialsConfig {
  /** False: the merchant's calls never use the operator's credentials, only its own. */
  readonly operatorFallback: boolean;
  readonly providers: Readonly<Record<string, StoredProviderCredential>>;
}
