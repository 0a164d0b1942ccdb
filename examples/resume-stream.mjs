// A raw STOMP client of Gatehouse's stream (no STOMP library) that loses nothing: it remembers the `position`
// header of the last MESSAGE and, after any reconnect (a server restart, a network blip, a slow-consumer drop),
// subscribes again with `resume-after:<position>`, so the server replays what it missed from the change log.
// It prints one JSON line per change: {"position": ..., "entity": ..., "type": ..., "entityUuid": ...}.
//   GATEHOUSE_KEY=<api key> ORG_UUID=<orgUuid> node examples/resume-stream.mjs [wss://127.0.0.1:8443/websocket]
// POSITION_FILE=<file> keeps the position across restarts of this client too.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import WebSocket from 'ws';

const { GATEHOUSE_KEY: key, ORG_UUID: orgUuid, POSITION_FILE: positionFile } = process.env;
const url = process.argv[2] ?? 'wss://127.0.0.1:8443/websocket';
if (!key || !orgUuid) {
  console.error('set GATEHOUSE_KEY and ORG_UUID');
  process.exit(2);
}
let position = positionFile && existsSync(positionFile) ? readFileSync(positionFile, 'utf8').trim() : null;
let attempt = 0;

/** One STOMP frame from one WebSocket text message: command, headers (STOMP 1.2 escaping), body. */
function parse(text) {
  const split = text.indexOf('\n\n');
  const [command, ...lines] = text.slice(0, split).split('\n');
  const headers = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const unescape = (s) => s.replace(/\\([\\nrc])/g, (_, c) => ({ '\\': '\\', n: '\n', r: '\r', c: ':' })[c]);
    headers[unescape(line.slice(0, colon))] ??= unescape(line.slice(colon + 1));
  }
  return { command, headers, body: text.slice(split + 2, text.lastIndexOf('\0')) };
}

function connect() {
  const ws = new WebSocket(`${url}?x-auth-scheme=api-token`, ['v12.stomp'], {
    headers: { 'x-auth-apikey': key },
    // Only for the self-signed certificate that Gatehouse generates on first start.
    rejectUnauthorized: false,
  });
  let beat;
  ws.on('open', () => {
    // We promise a heart-beat every 10 s and keep the promise: the server drops a client silent for 20 s.
    ws.send('CONNECT\naccept-version:1.2\nheart-beat:10000,10000\n\n\0');
    beat = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('\n'), 10_000);
  });
  ws.on('message', (data) => {
    const text = data.toString('utf8');
    if (text === '\n') return; // the server's heart-beat
    const frame = parse(text);
    if (frame.command === 'CONNECTED') {
      attempt = 0;
      const resume = position === null ? '' : `resume-after:${position}\n`;
      ws.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${orgUuid}\n${resume}\n\0`);
    } else if (frame.command === 'MESSAGE') {
      const change = JSON.parse(frame.body);
      position = frame.headers.position;
      if (positionFile) writeFileSync(positionFile, position);
      console.log(JSON.stringify({ position: Number(position), entity: change.entity, type: change.type, entityUuid: change.entityUuid }));
    } else if (frame.command === 'ERROR') {
      console.error('ERROR', frame.headers.message, frame.body);
      // The position is older than the log keeps, or the store was reset: start again from now.
      if (frame.headers.message === 'Position too old' || frame.headers.message === 'Unknown position') position = null;
    }
  });
  ws.on('error', () => {});
  ws.on('close', () => {
    clearInterval(beat);
    const delay = Math.min(100 * 2 ** attempt++, 5000);
    setTimeout(connect, delay);
  });
}
connect();
