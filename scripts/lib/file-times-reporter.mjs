// A reporter for Node's test runner (beside the spec reporter; scripts/run-tests.mjs names it): the time of each
// top-level test, as JSON lines `{"name", "ms", "ok"}`: a test file's when it runs in a process of its own (Node.js
// names it by the file's path), else each of the file's top-level suites.
export default async function* topLevelTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { name, nesting, details } = event.data;
    if (nesting !== 0 || typeof details?.duration_ms !== 'number') continue;
    yield `${JSON.stringify({ name, ms: Math.round(details.duration_ms), ok: details.passed !== false })}\n`;
  }
}
