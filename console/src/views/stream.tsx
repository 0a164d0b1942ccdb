import { useEffect, useState } from 'preact/hooks';
import type { ChangeStream, StreamEvent } from '../stream';
import { detailHref, RecordDetail } from './detail';

/** The console page of the record a change names: the view and kind that show it, by entity. */
const RECORD_PAGES: Record<string, [view: string, kind: string]> = {
  DOOR: ['org', 'door'],
  CAMERA: ['org', 'camera'],
  CAMERA_STATE: ['org', 'camera'],
  CAMERA_USER_CONFIG: ['org', 'camera'],
  LOCATION: ['org', 'location'],
  USER: ['org', 'user'],
  BUTTON: ['org', 'sensor'],
  ENVIRONMENTAL_GATEWAY: ['org', 'sensor'],
  CLIMATE_STATE: ['org', 'sensor'],
  POLICY_ALERT: ['alerts', 'alert'],
  SAVED_CLIP: ['alerts', 'clip'],
  SCHEDULE: ['automation', 'schedule'],
  RULE: ['automation', 'rule'],
  BUTTON_RULE: ['automation', 'rule'],
};

/** Where a change's record is shown: its own page when the console has one, else the record as the stream carried it. */
export function recordHref(e: Pick<StreamEvent, 'entity' | 'entityUuid'>): string {
  const page = RECORD_PAGES[e.entity];
  return page ? detailHref(page[0], page[1], e.entityUuid) : detailHref('stream', e.entity, e.entityUuid);
}

/** A record the console has no page for: its changes in this tab, and the record as the newest one carried it. */
function StreamRecord({ stream, entity, uuid }: { stream: ChangeStream; entity: string; uuid: string }) {
  const changes = stream.events.filter((e) => e.entity === entity && e.entityUuid === uuid);
  const update = changes.map((e) => e.body.update).find((u) => u && typeof u === 'object') as Record<string, unknown> | undefined;
  return (
    <RecordDetail title={uuid} kind={entity.toLowerCase().replace(/_/g, ' ')} record={update ?? null} back={{ href: '#/stream', label: 'Stream' }}>
      <p class="muted">{`As the stream carried it: ${changes.length} change${changes.length === 1 ? '' : 's'} seen in this tab (${changes.map((e) => e.type).join(', ')}).`}</p>
    </RecordDetail>
  );
}

export function StreamView({ stream, detail }: { stream: ChangeStream | null; detail: { kind: string; id: string } | null }) {
  const [, setTick] = useState(0);
  const [entity, setEntity] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => stream?.subscribe(() => setTick((t) => t + 1)), [stream]);
  if (!stream) return <p>Connecting to the stream…</p>;
  if (detail) return <StreamRecord stream={stream} entity={detail.kind} uuid={detail.id} />;
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
              </button>{' '}
              {e.entityUuid && (
                <a class="record-link" href={recordHref(e)} aria-label={`Open the ${e.entity.toLowerCase().replace(/_/g, ' ')} ${e.entityUuid}`}>
                  Open record
                </a>
              )}
              {open === e.seq && <pre>{JSON.stringify(e.body, null, 2)}</pre>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
