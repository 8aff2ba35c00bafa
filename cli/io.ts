/**
 * Where a CLI run reads and writes: the process in `main.ts`, buffers in tests. Commands never touch
 * `process` directly, so every command is testable in-process and its output is exactly what a
 * terminal (or a pipe) gets.
 */
export interface CliIo {
  readonly stdout: { write(text: string): void };
  readonly stderr: { write(text: string): void };
  /** Whole standard input, for text given on a pipe (`echo hi | switchyard gen`). */
  readStdin(): Promise<string>;
  /** Standard input is a terminal (then nothing is read from it). */
  readonly stdinIsTty: boolean;
  /** Standard error is a terminal: spinners and progress only then. */
  readonly stderrIsTty: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Width of the terminal on standard output, for help text; absent (a pipe, a test): 80 columns. */
  readonly stdoutColumns?: number;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    stdinIsTty: process.stdin.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    // The one place the CLI reads the process environment.
    env: process.env,
    cwd: process.cwd(),
    ...(process.stdout.isTTY === true ? { stdoutColumns: process.stdout.columns } : {}),
  };
}
