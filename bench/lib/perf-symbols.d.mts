// Types of perf-symbols.mjs for its unit test.

export const perfSampleMicros: number;
export function assertPerfAvailable(): void;
export function recordThread(tid: number, file: string): { stop(): Promise<void> };
export function symbolSamples(file: string): Map<string, number>;
export function parsePerfReport(text: string): Map<string, number>;
export function addSamples(into: Map<string, number>, from: ReadonlyMap<string, number>): void;
