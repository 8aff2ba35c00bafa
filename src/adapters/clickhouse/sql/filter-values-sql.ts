import { domainEvents, windowWhere } from './domain-filters-sql.js';

/**
 * Distinct filter values seen in the window (routing-stats `available_filters`), over all flows.
 *
 * Inputs: the window inputs of domain-filters-sql.ts.
 * Outputs: one row { payment_method_type, payment_method, card_network, card_is_in, currency, country,
 *   auth_type, gateway: Array(String) }, each sorted, possibly containing '' (dropped by the domain).
 * Aliases are prefixed (v_) and renamed outside: an alias equal to its aggregated column trips 18.16.
 */
export const filterValuesSql = `SELECT v_payment_method_type AS payment_method_type, v_payment_method AS payment_method,
  v_card_network AS card_network, v_card_is_in AS card_is_in, v_currency AS currency, v_country AS country,
  v_auth_type AS auth_type, v_gateway AS gateway
FROM (
  SELECT arraySort(groupUniqArray(payment_method_type)) AS v_payment_method_type,
    arraySort(groupUniqArray(payment_method)) AS v_payment_method,
    arraySort(groupUniqArray(card_network)) AS v_card_network,
    arraySort(groupUniqArray(card_is_in)) AS v_card_is_in,
    arraySort(groupUniqArray(currency)) AS v_currency,
    arraySort(groupUniqArray(country)) AS v_country,
    arraySort(groupUniqArray(auth_type)) AS v_auth_type,
    arraySort(groupUniqArray(gateway)) AS v_gateway
  FROM ${domainEvents} FINAL
  WHERE ${windowWhere}
)`;
