import type { Command } from 'commander';
import { loadConfig } from '../config.js';

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('start the REST, media and WebSocket listeners')
    .option('--region <region>', 'us or eu (GATEHOUSE_REGION)')
    .option('--data-dir <dir>', 'data directory (GATEHOUSE_DATA_DIR)')
    .option('--host <host>', 'address to listen on (GATEHOUSE_HOST, default 127.0.0.1)')
    .option('--http-port <n>', 'REST port (GATEHOUSE_HTTP_PORT, default 8080; 0 = any free port)')
    .option('--media-port <n>', 'media port (GATEHOUSE_MEDIA_PORT, default 8081)')
    .option(
      '--public-media-url <url>',
      "the media host's public base URL in every media URI (GATEHOUSE_PUBLIC_MEDIA_URL; default: the media listener's address)",
    )
    .option('--ws-port <n>', 'WebSocket port, TLS (GATEHOUSE_WS_PORT, default 8443)')
    .option('--database <url>', 'sqlite:<file> or postgres://... (GATEHOUSE_DATABASE_URL)')
    .option('--bus <url>', 'memory: or redis://... (GATEHOUSE_BUS_URL)')
    .option('--bus-namespace <name>', "this deployment's channels on a shared Redis (GATEHOUSE_BUS_NAMESPACE; default: from the store)")
    .option('--http-tls', 'serve REST over TLS, asking for client certificates (GATEHOUSE_HTTP_TLS)')
    .option('--rate-limit <n>', 'requests per second per organization, burst 10 times that (GATEHOUSE_RATE_LIMIT; default: no limit)')
    .option('--journal-size <n>', 'calls the request journal keeps for the console and /_gatehouse/requests (GATEHOUSE_JOURNAL_SIZE, default 500; 0 = none)')
    .option('--no-seed', 'do not create the demo organization on first start')
    .action(async (opts) => {
      // The listeners and every route load only for `start`: the other commands start in a fraction of the time.
      const [{ startGatehouse }, { ensureDemoOrg }, { adminTokenSource }] = await Promise.all([
        import('../app.js'),
        import('../demo.js'),
        import('../admin-token.js'),
      ]);
      const config = loadConfig(opts);
      const gatehouse = await startGatehouse(config);
      const demo = config.seed ? await ensureDemoOrg(gatehouse.deps) : null;
      const lines = [
        `Gatehouse is running (region ${config.region}, store ${gatehouse.deps.store.dialect}, bus ${config.busUrl.split(':')[0]})`,
        `  REST:      ${gatehouse.urls.rest}`,
        `  Media:     ${gatehouse.urls.media}`,
        `  WebSocket: ${gatehouse.urls.ws}`,
        `  OpenAPI:   ${gatehouse.urls.rest}/openapi.json  (docs at /docs)`,
        `  Control:   ${gatehouse.urls.rest}/_gatehouse/  (admin token: ${adminTokenSource(config)})`,
        `  Console:   ${gatehouse.urls.console}  (sign in with an API key or the admin token)`,
        ...(demo ? [`  Demo organization: ${demo.orgUuid}`, `  Demo API key:      ${demo.apiKey}`] : []),
      ];
      process.stdout.write(lines.join('\n') + '\n');
      let closing = false;
      const shutdown = async () => {
        if (closing) return;
        closing = true;
        await gatehouse.close();
        process.exit(0);
      };
      process.on('SIGINT', () => void shutdown());
      process.on('SIGTERM', () => void shutdown());
    });
}
