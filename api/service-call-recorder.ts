/*
 * The service's call recorder is a governance use case (src/governance/spend-counting-recorder.ts);
 * this name stays for the composition roots (cli/start-service.ts, test/helpers/test-app.ts) that
 * import it from here.
 */
export { spendCountingRecorder as serviceCallRecorder } from '../src/governance/spend-counting-recorder.js';
