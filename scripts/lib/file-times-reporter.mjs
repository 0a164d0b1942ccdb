// A reporter for Node's test runner (beside the spec reporter; scripts/run-tests.mjs names it): each test file's
// time, from its process's start to its end, as JSON lines `{"file", "ms", "ok"}`. Node.js reports a file run in a
// process of its own as a test named by the file's path; a release that does not gets no lines.
export default async function* fileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { name, file, nesting, details } = event.data;
    if (nesting !== 0 || !file || name !== file || typeof details?.duration_ms !== 'number') continue;
    yield `${JSON.stringify({ file, ms: Math.round(details.duration_ms), ok: details.passed !== false })}\n`;
  }
}
