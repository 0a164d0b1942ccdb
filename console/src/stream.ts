import { Client } from '@stomp/stompjs';
import type { Session } from './api';

/** A change event as the platform's stream delivers it. */
export interface StreamEvent {
  /** Arrival order in this tab. */
  seq: number;
  receivedAt: number;
  entity: string;
  type: string;
  entityUuid: string;
  body: Record<string, unknown>;
}

export type StreamStatus = 'connecting' | 'connected' | 'closed' | 'error';

const MAX_EVENTS = 500;

/**
 * The organization's change stream over the platform's STOMP-over-WebSocket endpoint, relayed on this origin
 * (/console/stream): the key goes in the CONNECT frame, the relay puts it on the stream's handshake.
 */
export class ChangeStream {
  events: StreamEvent[] = [];
  status: StreamStatus = 'connecting';
  lastError = '';
  private seq = 0;
  private client: Client;
  private listeners = new Set<() => void>();

  constructor(session: Session) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.client = new Client({
      brokerURL: `${scheme}://${location.host}/console/stream`,
      connectHeaders: { 'x-auth-apikey': session.apiKey ?? '' },
      reconnectDelay: 3000,
      heartbeatIncoming: 20000,
      heartbeatOutgoing: 20000,
      onConnect: () => {
        this.set('connected');
        this.client.subscribe(`/topic/change/${session.orgUuid}`, (message) => this.receive(message.body));
      },
      onStompError: (frame) => {
        this.lastError = frame.headers.message ?? frame.body;
        this.set('error');
      },
      onWebSocketClose: () => {
        if (this.status !== 'error') this.set('closed');
      },
    });
    this.client.activate();
  }

  private receive(text: string): void {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { text };
    }
    const field = (...names: string[]) => String(names.map((n) => body[n]).find((v) => typeof v === 'string') ?? '');
    this.events = [
      {
        seq: ++this.seq,
        receivedAt: Date.now(),
        entity: field('entity', 'entityType'),
        type: field('type', 'changeType', 'eventType'),
        entityUuid: field('entityUuid', 'uuid'),
        body,
      },
      ...this.events,
    ].slice(0, MAX_EVENTS);
    this.notify();
  }

  private set(status: StreamStatus): void {
    this.status = status;
    this.notify();
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.events = [];
    this.notify();
  }

  close(): void {
    void this.client.deactivate();
  }
}
