// How busy the whole machine was over a span (every process on every core), from the kernel's per-core times: on
// a shared 2-core machine this tells a server's own queue from the machine's, where PostgreSQL, the load
// generator and the server take turns on the same cores.
import { cpus } from 'node:os';

function totals(): { idle: number; all: number } {
  let idle = 0;
  let all = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    all += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, all };
}

/** Starts a span; the function answered gives the share of the machine's CPU time (every core) that was busy since. */
export function machineBusySince(): () => number {
  const start = totals();
  return () => {
    const end = totals();
    const all = end.all - start.all;
    return all > 0 ? 1 - (end.idle - start.idle) / all : NaN;
  };
}
