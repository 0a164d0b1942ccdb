/**
 * How deep a request body may nest. The platform's bodies are at most a handful of levels deep; a deeper one is
 * refused before validation, so that no validator, handler or store ever recurses through an attacker's
 * thousands of levels (a deeply nested field once made a stack overflow answer 500).
 */
export const MAX_BODY_DEPTH = 32;

/** Whether a parsed JSON value nests deeper than `max` levels of objects and arrays (checked without recursion). */
export function nestsDeeperThan(value: unknown, max = MAX_BODY_DEPTH): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
    }
  }
  return false;
}
