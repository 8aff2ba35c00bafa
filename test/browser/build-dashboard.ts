import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * vitest globalSetup of the browser project: builds the dashboard from the current source into
 * dist/dashboard (what the service serves), so the tests never run against a stale build.
 */
export default function buildDashboard(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync('npm', ['run', '--silent', 'build:dashboard'], { cwd: root, stdio: 'inherit' });
}
