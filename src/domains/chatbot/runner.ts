import type { Deps } from '../../deps.js';
import { runDuePrompts } from './automation.service.js';

/** How often an instance looks for automated prompts due (the shortest frequency is a minute). */
export const PROMPT_SWEEP_MS = 30_000;

/**
 * Runs the automated prompts due, every PROMPT_SWEEP_MS (and once at start, for runs missed while no instance
 * ran: a prompt runs once for them, then keeps its schedule). Two instances sweeping at once run a prompt once:
 * a run moves its next run in the same write, and the other sees it moved.
 */
export function startPromptRunner(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>): { stop(): Promise<void> } {
  const log = deps.log.child({ domain: 'chatbot', job: 'automated-prompts' });
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = running
      .then(() => runDuePrompts(deps))
      .then((n) => n > 0 && log.info({ ran: n }, 'automated prompts ran'))
      .catch((err) => log.error({ err }, 'automated prompt sweep failed'));
  };
  const timer = setInterval(sweep, PROMPT_SWEEP_MS);
  timer.unref();
  sweep();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
