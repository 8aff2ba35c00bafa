import { domainEvents, windowWhere } from './domain-filters-sql.js';

/**
 * Counting reads: events per flow type, rule hits, and decision/approach counts.
 *
 * Inputs: the window inputs of domain-filters-sql.ts, plus
 *   flowCountsSql:     {flows:Array(String)}
 *   ruleCountsSql:     {rule_hit_flow:String} {limit:UInt32}
 *   approachCountsSql: {decision_flow:String}
 *   decisionTotalsSql: {decision_flow:String} {decision_error_flow:String}
 * Outputs:
 *   flowCountsSql, ruleCountsSql, approachCountsSql: rows { key: String, count: UInt64 }, largest count first
 *   decisionTotalsSql: one row { decisions: UInt64, failures: UInt64 }
 */

export const flowCountsSql = `SELECT flow_type AS key, count() AS count
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND has({flows:Array(String)}, flow_type)
GROUP BY flow_type
ORDER BY count DESC, key`;

export const ruleCountsSql = `SELECT rule_name AS key, count() AS count
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND flow_type = {rule_hit_flow:String}
GROUP BY rule_name
ORDER BY count DESC, key
LIMIT {limit:UInt32}`;

export const approachCountsSql = `SELECT routing_approach AS key, count() AS count
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND flow_type = {decision_flow:String}
GROUP BY routing_approach
ORDER BY count DESC, key`;

export const decisionTotalsSql = `SELECT countIf(flow_type = {decision_flow:String}) AS decisions,
  countIf(flow_type = {decision_error_flow:String}) AS failures
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND (flow_type = {decision_flow:String} OR flow_type = {decision_error_flow:String})`;
