// How the profile benches name a V8 .cpuprofile frame: `function path:line`, the path from dist/ or
// node_modules/ on (profile-summary.mjs, profile-rows.mjs).

/** The frame's file from dist/ or node_modules/ on; '' for a builtin. */
export function frameFile(callFrame) {
  return callFrame.url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/');
}

/** `function path:line` (just the function for a builtin). */
export function frameName(callFrame) {
  const where = frameFile(callFrame);
  return `${callFrame.functionName || '(anonymous)'}${where === '' ? '' : ` ${where}:${callFrame.lineNumber + 1}`}`;
}
