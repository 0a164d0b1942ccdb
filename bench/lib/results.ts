// What every bench reports: each target with its figure and PASS or FAIL (or INFO for a figure without a
// target), printed as it is measured and once more in the summary table at the end of `npm run bench`.
import { loadavg } from 'node:os';

export interface TargetResult {
  bench: string;
  target: string;
  /** The measured figure, with its unit. */
  figure: string;
  /** What passes, as in `>= 0.8 of bare`. */
  goal: string;
  /** Null: reported only. */
  pass: boolean | null;
}

const results: TargetResult[] = [];
let currentBench = '';

export function startBench(name: string): void {
  currentBench = name;
}

const verdict = (pass: boolean | null) => (pass === null ? 'INFO' : pass ? 'PASS' : 'FAIL');

/** Records (and prints) one target's figure. */
export function record(target: string, figure: string, goal: string, pass: boolean | null): void {
  results.push({ bench: currentBench, target, figure, goal, pass });
  console.log(`  ${verdict(pass)}  ${target}: ${figure}${goal ? ` (target ${goal})` : ''}`);
}

/** A bench that failed to run fails its bench's line. */
export function recordFailure(bench: string, error: unknown): void {
  results.push({ bench, target: 'ran to the end', figure: (error as Error)?.message?.split('\n')[0] ?? String(error), goal: '', pass: false });
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** What this process has recorded: a bench's child process hands it to `npm run bench` (bench/run.ts). */
export const recorded = (): readonly TargetResult[] => results;

/** Adds what a bench's child process recorded. */
export function addResults(more: readonly TargetResult[]): void {
  results.push(...more);
}

/** The summary, as a Markdown table (the README's benchmark section has the same columns). */
export function summaryTable(): string {
  const rows = results.map((r) => `| ${r.bench} | ${r.target} | ${r.figure} | ${r.goal || '-'} | ${verdict(r.pass)} |`);
  return ['| bench | target | figure | goal | result |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

export const anyFailed = () => results.some((r) => r.pass === false);
