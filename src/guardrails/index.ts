/**
 * Guardrails (issue 38): detectors for card numbers, personal data and credentials, prompt-injection
 * heuristics, custom deny-lists and patterns, reversible masking and a streaming masker. Pure domain: no
 * I/O, no infrastructure; the gateway, the toolkit and the batch worker apply it through a `GuardSession`.
 */
export { detectCardNumbers, isCardNumber, inKnownIinRange, mayHoldCardNumber } from './card-number.js';
export { ibanValid, luhnValid, spanishIdValid, verhoeffValid } from './checksums.js';
export { detectCredentials } from './credential-detector.js';
export { type Detection, type DetectorKind, detectorKinds, placeholderLabels, withoutOverlaps } from './detection.js';
export { type CompiledJudge, type CompiledModeration, type CompiledPolicy, defaultModerationModel, GuardPolicy } from './guard-policy.js';
export { type CheckedInput, type GuardBlock, type GuardOutcome, GuardSession, type GuardStage, type InputSource } from './guard-session.js';
export { type GuardCheckScope, type GuardChecks, type ModerationVerdict, runGuardChecks } from './run-guard-checks.js';
export {
  combineGuardSettings,
  defaultGuardSettings,
  defaultInjectionThreshold,
  type GuardAction,
  type GuardSettings,
  guardActions,
  stricterAction,
} from './guard-settings.js';
export { injectionScore } from './injection-score.js';
export { MaskVault, placeholderPattern } from './mask-vault.js';
export { detectEmails, detectIbans, detectIpAddresses, detectNationalIds, detectPhones } from './pii-detectors.js';
export { checkPattern, type PatternVerdict } from './safe-pattern.js';
export { maxHoldChars, StreamMasker } from './stream-masker.js';
