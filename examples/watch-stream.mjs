// Prints every change of an organization as it happens: a minimal client of Gatehouse's stream.
//   GATEHOUSE_KEY=<api key> ORG_UUID=<orgUuid from getOrgV2> node examples/watch-stream.mjs [wss://127.0.0.1:8443/websocket]
import { Client } from '@stomp/stompjs';
import WebSocket from 'ws';

const { GATEHOUSE_KEY: key, ORG_UUID: orgUuid } = process.env;
const url = process.argv[2] ?? 'wss://127.0.0.1:8443/websocket';
if (!key || !orgUuid) {
  console.error('set GATEHOUSE_KEY and ORG_UUID');
  process.exit(2);
}
const client = new Client({
  webSocketFactory: () =>
    new WebSocket(`${url}?x-auth-scheme=api-token`, ['v12.stomp'], {
      headers: { 'x-auth-apikey': key },
      // Only for the self-signed certificate that Gatehouse generates on first start.
      rejectUnauthorized: false,
    }),
  heartbeatIncoming: 10000,
  heartbeatOutgoing: 10000,
  onConnect: () =>
    client.subscribe(`/topic/change/${orgUuid}`, (message) => {
      const change = JSON.parse(message.body);
      console.log(change.entity, change.type, change.entityUuid, JSON.stringify(change.update));
    }),
  onStompError: (frame) => console.error(frame.headers.message, frame.body),
  onWebSocketClose: (event) => console.error('closed', event.code, event.reason ?? ''),
});
client.activate();
