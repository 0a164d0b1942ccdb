/** The limits and timings of the stream; every value is documented in docs/streaming.md. */
export interface StreamOptions {
  /** Bytes of one inbound frame (command, headers and body). */
  maxFrameBytes: number;
  /** Headers of one inbound frame. */
  maxHeaders: number;
  /** Active subscriptions of one connection. */
  maxSubscriptions: number;
  /** Messages delivered with ack mode client or client-individual and not acknowledged yet, per connection. */
  maxPendingAcks: number;
  /** Bytes waiting to be written to one connection (its backlog) before it is dropped as a slow consumer. */
  maxBufferedBytes: number;
  /** What the server offers in CONNECTED's heart-beat: [can send every ms, wants to receive every ms]. */
  heartbeat: [number, number];
  /** A client is dropped when it has sent nothing for this many times its negotiated heart-beat interval. */
  heartbeatGrace: number;
  /** How long a connection may take from the handshake to its CONNECT frame. */
  connectTimeoutMs: number;
  /** How long delivery waits for a change whose id was skipped before reading the change log. */
  gapWaitMs: number;
  /** How often the positions of the followed organizations are compared with the change log (announcements lost). */
  logPollMs: number;
  /**
   * How often the keys of open sessions are checked in the store: a session whose key was revoked without an
   * announcement on this instance's bus, or has expired, is closed within this time.
   */
  keyCheckMs: number;
}

export const defaultStreamOptions: StreamOptions = {
  maxFrameBytes: 64 * 1024,
  maxHeaders: 64,
  maxSubscriptions: 100,
  maxPendingAcks: 1000,
  maxBufferedBytes: 4 * 1024 * 1024,
  heartbeat: [10_000, 10_000],
  heartbeatGrace: 2,
  connectTimeoutMs: 10_000,
  gapWaitMs: 100,
  logPollMs: 2000,
  keyCheckMs: 5000,
};
