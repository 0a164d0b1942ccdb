// The server under `npm run soak`, in a process of its own so that its memory and descriptors are its alone: the
// build (dist/) started on loopback with free ports and a fresh data dir, one organization, and its URLs and
// API key sent to the parent.
const dist = new URL('../dist/', import.meta.url);
const { startGatehouse } = await import(new URL('app.js', dist).href);
const { loadConfig } = await import(new URL('config.js', dist).href);
const { createOrg } = await import(new URL('domains/orgs/service.js', dist).href);
const { createLogger } = await import(new URL('logger.js', dist).href);

const gatehouse = await startGatehouse(loadConfig({ dataDir: process.env.SOAK_DATA_DIR, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}), {
  log: createLogger('warn'),
});
const org = await createOrg(gatehouse.deps, { name: 'Soak Org' });
process.send({ urls: gatehouse.urls, orgUuid: org.orgUuid, apiKey: org.apiKey });
process.on('disconnect', () => void gatehouse.close().finally(() => process.exit(0)));
