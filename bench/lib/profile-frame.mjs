// How the profile benches read a V8 .cpuprofile: a frame named `function path:line`, the path from
// dist/ or node_modules/ on (profile-summary.mjs, profile-rows.mjs, profile-rounds.mjs), and its
// samples walked in time order (profile-rows.mjs, profile-rounds.mjs).

/** The frame's file from dist/ or node_modules/ on (its URL's `file://` optional, as a perf map writes some); '' for a builtin. */
export function frameFile(callFrame) {
  return callFrame.url.replace(/^(?:file:\/\/)?.*?\/(dist|node_modules)\//, '$1/');
}

/** `function path:line` (just the function for a builtin). */
export function frameName(callFrame) {
  const where = frameFile(callFrame);
  return `${callFrame.functionName || '(anonymous)'}${where === '' ? '' : ` ${where}:${callFrame.lineNumber + 1}`}`;
}

/**
 * Calls `visit(atUs, nodeId, us)` for every sample of `profile`, in order: its time on the profile's
 * clock (µs) and the µs it stands for (V8's delta before it).
 */
export function eachSample(profile, visit) {
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    visit(at, profile.samples[i], profile.timeDeltas[i]);
  }
}
