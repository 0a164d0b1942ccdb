// Summarizes CPU profiles of the inspector (.cpuprofile, as the stream bench writes with BENCH_STREAM_PROFILE):
// where the busy time went, by function (self and inclusive) and by file, over every profile named.
//   npx tsx bench/lib/profile-summary.ts [--top N] a.cpuprofile [b.cpuprofile ...]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 40;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const byFile = new Map<string, number>();
let busy = 0;
let idle = 0;
const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

for (const file of args) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return url ? `${functionName || '(anonymous)'} ${basename(url)}:${lineNumber + 1}` : functionName || '(anonymous)';
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    busy += dt;
    add(self, key(node), dt);
    add(byFile, node.callFrame.url ? basename(node.callFrame.url) : `(${node.callFrame.functionName || 'native'})`, dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id)!);
      if (!seen.has(k)) add(inclusive, k, dt);
      seen.add(k);
    }
  }
}

const table = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * v) / busy).toFixed(1).padStart(6)}%  ${v.toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`busy ${busy.toFixed(0)} ms, idle ${idle.toFixed(0)} ms (${((100 * busy) / (busy + idle)).toFixed(1)}% busy), ${args.length} profiles`);
table('self time by function', self);
table('self time by file', byFile);
table('inclusive time by function', inclusive);
