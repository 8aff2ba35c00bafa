import { errorCodeOf } from './error-code-of.js';
import type { GenerationTelemetry } from './telemetry.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * Wraps a tool so each execution is observed (span `tool.<name>`, tool-call metrics). A tool that
 * answers `{ success: false }` counts as failed; used only when telemetry is on.
 */
export function observeTool(tool: ToolDefinition, telemetry: GenerationTelemetry, clock: () => number): ToolDefinition {
  return {
    ...tool,
    async execute(input, context) {
      const observation = telemetry.startCall('tool', tool.source, tool.name);
      const started = clock();
      try {
        const output = await tool.execute(input, context);
        const failed = typeof output === 'object' && output !== null && 'success' in output && output.success === false;
        observation.end({ ok: !failed, latencyMs: clock() - started, ...(failed ? { errorCode: 'TOOL_FAILED' } : {}) });
        return output;
      } catch (error) {
        observation.end({ ok: false, errorCode: errorCodeOf(error), latencyMs: clock() - started });
        throw error;
      }
    },
  };
}
