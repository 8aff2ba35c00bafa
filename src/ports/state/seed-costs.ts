/**
 * One row of a merchant's seed cost table (contract rates): a PSP's fee for one card scenario,
 * split into its contract components (bps of the amount) plus a flat fee in the payment's currency.
 * Unset dimensions are wildcards; `isDefault` marks the PSP's fallback row (no dimensions).
 * Until cost ingestion has fitted real settlement data, these rows price the PSPs.
 */
export interface SeedCostRow {
  readonly psp: string;
  readonly cardNetwork?: string;
  readonly paymentMethodType?: string;
  readonly cardType?: string;
  readonly transactionCurrency?: string;
  readonly cardIssuingCountry?: string;
  readonly interchangeBps: number;
  readonly schemeBps: number;
  readonly markupBps: number;
  readonly fixed: number;
  readonly label?: string;
  readonly exampleAmount?: number;
  readonly isDefault: boolean;
}

/** The whole table, stored and replaced as one document (`seedCosts`). */
export type SeedCostTable = readonly SeedCostRow[];
