/**
 * A merchant's reporting currency (the ConfigStore document `reportingCurrency`): the ISO 4217 code
 * money reports are converted to, with the exchange rates to it the operator or merchant supplied.
 * Rates are configuration, never fetched: the service has no network source of rates, and a report
 * must be reproducible from what was set.
 */
export interface ReportingCurrencySetting {
  /** ISO 4217 code, upper case. */
  readonly currency: string;
  /** One rate per source currency (never the reporting currency itself), in the order given. */
  readonly rates: readonly ExchangeRate[];
}

/** What one unit of `currency` is worth in the reporting currency, as of a date. */
export interface ExchangeRate {
  readonly currency: string;
  /** Above 0; kept as the number given, read as the decimal it was written as (src/costs/decimal-amount.ts). */
  readonly rate: number;
  /** YYYY-MM-DD. */
  readonly asOf: string;
}
