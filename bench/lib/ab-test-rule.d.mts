// Types of ab-test-rule.mjs for the TypeScript benches (bench/decide-cost.ts).

export function abTestRule(
  name: string,
  merchant: string,
  variantSrConfig?: Readonly<Record<string, unknown>>,
): {
  readonly name: string;
  readonly created_by: string;
  readonly algorithm_for: 'payment';
  readonly algorithm: { readonly type: 'ab_test'; readonly data: Readonly<Record<string, unknown>> };
};
