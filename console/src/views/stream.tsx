import { useEffect, useState } from 'preact/hooks';
import type { ChangeStream } from '../stream';

export function StreamView({ stream }: { stream: ChangeStream | null }) {
  const [, setTick] = useState(0);
  const [entity, setEntity] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => stream?.subscribe(() => setTick((t) => t + 1)), [stream]);
  if (!stream) return <p>Connecting to the stream…</p>;
  const entities = [...new Set(stream.events.map((e) => e.entity))].sort();
  const shown = entity ? stream.events.filter((e) => e.entity === entity) : stream.events;
  return (
    <div class="stream">
      <h1>Live stream</h1>
      <p class="muted">The organization's change events as the platform's STOMP-over-WebSocket stream delivers them, newest first.</p>
      <div class="toolbar">
        <span role="status" aria-live="polite" class={`badge badge-${stream.status}`}>
          Stream {stream.status}
          {stream.lastError ? `: ${stream.lastError}` : ''}
        </span>
        <label>
          <span>Entity</span>
          <select value={entity} onChange={(e) => setEntity(e.currentTarget.value)}>
            <option value="">All entities</option>
            {entities.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => stream.clear()}>
          Clear
        </button>
      </div>
      {shown.length === 0 ? (
        <p class="muted">No change yet: act on the organization (unlock a door, raise an event in the simulator) and it appears here.</p>
      ) : (
        <ol class="events" aria-label="Change events">
          {shown.map((e) => (
            <li key={e.seq} class="event" data-entity={e.entity} data-type={e.type}>
              <button type="button" aria-expanded={open === e.seq} onClick={() => setOpen(open === e.seq ? null : e.seq)}>
                <time>{new Date(e.receivedAt).toLocaleTimeString()}</time> <strong>{e.entity}</strong> {e.type} <code>{e.entityUuid}</code>
              </button>
              {open === e.seq && (
                <>
                  <p>
                    <a href={e.entity.startsWith('POLICY_ALERT') ? '#/alerts' : '#/org'}>Show {e.entity.toLowerCase().replace(/_/g, ' ')} records</a>
                  </p>
                  <pre>{JSON.stringify(e.body, null, 2)}</pre>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
