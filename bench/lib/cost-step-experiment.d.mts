// Types of cost-step-experiment.mjs for the unit tests.

export declare const benchSeedCosts: {
  readonly rows: readonly {
    readonly psp: string;
    readonly interchange_bps: number;
    readonly scheme_bps: number;
    readonly markup_bps: number;
    readonly fixed: number;
    readonly is_default: boolean;
  }[];
};
export declare function enableCostStepAndExperiment(url: string, merchant: string, headers: Record<string, string>, experimentName: string): Promise<void>;
