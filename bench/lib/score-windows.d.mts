export declare function filledWindowsAsked(env?: Readonly<Record<string, string | undefined>>): boolean;
export declare const benchBucketSize: number;
export declare const benchWindowSuccesses: Readonly<Record<'stripe' | 'adyen' | 'checkout', number>>;
export declare function benchWindowBucket(): Record<'stripe' | 'adyen' | 'checkout', boolean>[];
export declare function fillScoreWindows(
  post: (path: string, payload: unknown) => Promise<{ readonly gateway_priority_map?: Record<string, number> | null }>,
  merchant: string,
  body: (merchant: string, paymentId: string, index: number) => unknown,
  cards?: number,
): Promise<number>;
