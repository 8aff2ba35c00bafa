import type { FileSystem } from '../../ports/file-system.js';
import type { ToolDefinition } from '../tool-definition.js';
import { wrapWithConfirmation } from './confirmation.js';
import { argsObject, failure, listDirectoryTool, readFileTool, searchFilesTool, writeFileTool, type FileToolLimits } from './file-tools.js';
import { evaluateMathExpression, maxExpressionLength } from './math-expression.js';
import { PathSandbox } from './sandbox-path.js';

export interface BuiltInToolsOptions {
  /** Directory the file tools are confined to (the caller passes the working directory). */
  readonly root: string;
  /** How the file tools reach the files (the composition root passes the node:fs adapter). */
  readonly fileSystem: FileSystem;
  /** Largest file readFile returns; default 1 MiB. */
  readonly maxReadBytes?: number;
  /** Largest content writeFile accepts; default 1 MiB. */
  readonly maxWriteBytes?: number;
  /** Entries listDirectory returns at most (then `truncated: true`); default 1000. */
  readonly maxListEntries?: number;
  /** Matches searchFiles returns at most (then `truncated: true`); default 100. */
  readonly maxSearchResults?: number;
  /** Directory levels below the start that searchFiles descends; default 10. */
  readonly maxSearchDepth?: number;
  /** Whether writeFile needs the caller's grant (`context.confirmedTools`); default true. */
  readonly writeRequiresConfirmation?: boolean;
  /** Clock for getCurrentTime (tests). */
  readonly now?: () => Date;
}

export const builtInToolDefaults = Object.freeze({
  maxReadBytes: 1024 * 1024,
  maxWriteBytes: 1024 * 1024,
  maxListEntries: 1000,
  maxSearchResults: 100,
  maxSearchDepth: 10,
  maxSearchVisited: 20_000,
});

export const builtInToolNames = ['getCurrentTime', 'readFile', 'listDirectory', 'calculateMath', 'writeFile', 'searchFiles'] as const;

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

function getCurrentTimeTool(now: () => Date): ToolDefinition {
  return {
    name: 'getCurrentTime',
    description: 'Get the current date and time, optionally in an IANA time zone such as America/New_York or Asia/Kolkata.',
    inputSchema: { type: 'object', properties: { timezone: { type: 'string', description: 'IANA time zone name' } }, additionalProperties: false },
    source: 'built-in',
    async execute(input) {
      try {
        const args = input === undefined || input === null ? {} : argsObject(input);
        const timezone = args.timezone;
        if (timezone !== undefined && (typeof timezone !== 'string' || timezone.length === 0 || timezone.length > 64))
          return { success: false, error: 'timezone must be a non-empty string' };
        const date = now();
        let time: string;
        try {
          time = date.toLocaleString('en-US', timezone === undefined ? {} : { timeZone: timezone });
        } catch {
          return { success: false, error: `unknown time zone "${String(timezone)}"` };
        }
        return { success: true, time, ...(timezone === undefined ? {} : { timezone }), iso: date.toISOString(), timestamp: date.getTime() };
      } catch (error) {
        return failure(error);
      }
    },
  };
}

function calculateMathTool(): ToolDefinition {
  return {
    name: 'calculateMath',
    description:
      'Evaluate an arithmetic expression: numbers, + - * / % ^ (or **), parentheses, sqrt abs ceil floor round pow sin cos tan log log10 exp min max, PI and E (a Math. prefix is accepted).',
    inputSchema: {
      type: 'object',
      properties: {
        expression: { type: 'string', maxLength: maxExpressionLength, description: 'e.g. "2 + 2" or "Math.sqrt(16)"' },
        precision: { type: 'integer', minimum: 0, maximum: 15, default: 2 },
      },
      required: ['expression'],
      additionalProperties: false,
    },
    source: 'built-in',
    async execute(input) {
      try {
        const args = argsObject(input);
        const precision = args.precision ?? 2;
        if (typeof precision !== 'number' || !Number.isInteger(precision) || precision < 0 || precision > 15)
          return { success: false, error: 'precision must be an integer from 0 to 15' };
        if (typeof args.expression !== 'string') return { success: false, error: 'expression must be a string' };
        const value = evaluateMathExpression(args.expression);
        return { success: true, expression: args.expression, result: Number(value.toFixed(precision)), type: 'number' };
      } catch (error) {
        return failure(error);
      }
    },
  };
}

/**
 * The six NeuroLink built-in tools as `ToolDefinition`s (`source: 'built-in'`). File tools are
 * confined to `options.root` (see PathSandbox); every tool returns `{ success: false, error }`
 * for an expected failure instead of throwing. writeFile is gated by `wrapWithConfirmation`
 * unless `writeRequiresConfirmation: false`.
 */
export function createBuiltInTools(options: BuiltInToolsOptions): ToolDefinition[] {
  const sandbox = new PathSandbox(options.root, options.fileSystem);
  const limits: FileToolLimits = {
    maxReadBytes: positiveInt(options.maxReadBytes, builtInToolDefaults.maxReadBytes, 'maxReadBytes'),
    maxWriteBytes: positiveInt(options.maxWriteBytes, builtInToolDefaults.maxWriteBytes, 'maxWriteBytes'),
    maxListEntries: positiveInt(options.maxListEntries, builtInToolDefaults.maxListEntries, 'maxListEntries'),
    maxSearchResults: positiveInt(options.maxSearchResults, builtInToolDefaults.maxSearchResults, 'maxSearchResults'),
    maxSearchDepth: positiveInt(options.maxSearchDepth, builtInToolDefaults.maxSearchDepth, 'maxSearchDepth'),
    maxSearchVisited: builtInToolDefaults.maxSearchVisited,
  };
  return [
    getCurrentTimeTool(options.now ?? (() => new Date())),
    readFileTool(sandbox, limits),
    listDirectoryTool(sandbox, limits),
    calculateMathTool(),
    wrapWithConfirmation(writeFileTool(sandbox, limits, options.writeRequiresConfirmation ?? true)),
    searchFilesTool(sandbox, limits),
  ];
}
