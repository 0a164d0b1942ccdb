import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from '../../scripts/lib/repo-root.js';
import { join } from 'node:path';
import { promisify } from 'node:util';

const root = REPO_ROOT;
/**
 * The package's CLI entry, as `npx gatehouse` runs it: the compiled CLI, which scripts/run-tests.mjs builds
 * first when a source is newer (a CLI under tsx took 2 to 10 s to start on a busy machine, the built one well under one).
 */
export const GATEHOUSE_BIN = join(REPO_ROOT, 'bin/gatehouse.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `gatehouse <args>` through the package bin. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [GATEHOUSE_BIN, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** The last line of a --json command's output, parsed. */
export function lastJson(stdout: string): any {
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/** Starts `gatehouse start ...` and resolves once it has printed its URLs. */
export function spawnServer(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: () => string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [GATEHOUSE_BIN, 'start', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server did not start within 30 s:\n${output}`));
    }, 30_000);
    const check = () => {
      if (/WebSocket:/.test(output) && /OpenAPI:/.test(output)) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        // Give the last lines (demo key) a moment to arrive.
        setTimeout(() => resolve({ child, output: () => output, stop }), 100);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}
