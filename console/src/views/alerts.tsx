import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Session } from '../api';
import { mediaUris, vodMpd } from '../media';
import { DashPlayer, MediaImage, Mp4Player } from '../player';
import { detailHref, RecordDetail } from './detail';

interface Alert {
  uuid: string;
  deviceUuid: string;
  timestampMs: number;
  textDescription: string | null;
  policyAlertTriggers: string[];
  saved: boolean;
  /** The alert's picture on the media host (absolute). */
  thumbnailLocationV2?: string | null;
  /** Device to the DASH manifest of the alert's footage (absolute). */
  clipLocationMapV2?: Record<string, string> | null;
}
interface SavedClip {
  uuid: string;
  title?: string | null;
  description?: string | null;
  sourceAlertUuid?: string | null;
  status?: string;
  deviceUuid?: string;
  timestampMs?: number;
  durationSec?: number;
  /** The stored video (MP4), once the clip is COMPLETE. */
  clipLocationV2?: string | null;
  thumbnailLocationV2?: string | null;
}

const alertTitle = (a: Alert) => `${a.policyAlertTriggers.join(', ')} ${a.textDescription ?? ''}`.trim();
const clipTitle = (c: SavedClip) => c.title ?? c.description ?? 'Saved clip';
/** A camera's id without its facet (`<camera>.v0`). */
const cameraOf = (device: string) => device.split('.')[0];

/** The alert's footage: its camera's DASH clip (the media host's M10 manifest). */
function AlertClip({ session, alert }: { session: Session; alert: Alert }) {
  const mpd = Object.values(alert.clipLocationMapV2 ?? {})[0];
  if (!mpd) return <p class="muted">This alert has no footage (not a camera's).</p>;
  return <DashPlayer session={session} src={mpd} label={`Clip of alert ${alert.uuid}`} />;
}

/** Recorded footage must have ended: the media host answers a window that ends in the future with 400. */
const SETTLED_MS = 4_000;

/**
 * A saved clip's video: its stored MP4 once COMPLETE; before that (the camera has not uploaded it), the camera's
 * recorded footage over the clip's window, as far as it is recorded.
 */
function SavedClipPlayer({ session, clip }: { session: Session; clip: SavedClip }) {
  const [recorded, setRecorded] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const stored = clip.status === 'COMPLETE' && clip.clipLocationV2 ? clip.clipLocationV2 : null;
  useEffect(() => {
    if (stored || !clip.deviceUuid || clip.timestampMs === undefined) return;
    const seconds = Math.min(clip.durationSec ?? 30, Math.floor((Date.now() - SETTLED_MS - clip.timestampMs) / 1000));
    if (seconds < 2) {
      setNote('The clip starts now: its footage is being recorded. Try again in a few seconds.');
      return;
    }
    mediaUris(session, cameraOf(clip.deviceUuid)).then(
      (links) => setRecorded(vodMpd(links.wanVodMpdUriTemplate, clip.timestampMs!, seconds)),
      (e: unknown) => setNote(`No footage: ${errorText(e)}`),
    );
  }, [clip.uuid, stored]);
  if (stored) return <Mp4Player session={session} url={stored} label={`Saved clip ${clip.uuid}`} />;
  if (recorded) return <DashPlayer session={session} src={recorded} label={`Saved clip ${clip.uuid} (the camera's recording)`} />;
  return <p class="muted">{note || 'Finding the footage…'}</p>;
}

/** The alert feed (thumbnails, each alert's clip, dismiss, save as a clip) and the saved clips (playable). */
export function AlertsView({ session, detail }: { session: Session; detail: { kind: string; id: string } | null }) {
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [clips, setClips] = useState<SavedClip[]>([]);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [playing, setPlaying] = useState<string | null>(null);

  const load = async () => {
    try {
      const [a, c] = await Promise.all([
        api<{ policyAlerts: Alert[] }>(session, '/api/event/getPolicyAlertsV2', { maxResults: 100 }),
        api<{ savedClips?: SavedClip[] }>(session, '/api/event/getSavedClipsV2', { maxPageSize: 100 }),
      ]);
      setAlerts(a.policyAlerts ?? []);
      setClips(c.savedClips ?? []);
      setError('');
    } catch (e) {
      setError(errorText(e));
    }
  };
  useEffect(() => {
    void load();
  }, [session.apiKey]);

  const act = async (what: string, path: string, body: unknown) => {
    try {
      await api(session, path, body);
      setStatus(what);
      await load();
    } catch (e) {
      setStatus(`${what} failed: ${errorText(e)}`);
    }
  };

  if (detail && alerts !== null) {
    const back = { href: '#/alerts', label: 'Alerts and clips' };
    if (detail.kind === 'clip') {
      const clip = clips.find((c) => c.uuid === detail.id);
      return (
        <RecordDetail title={clip ? clipTitle(clip) : detail.id} kind="saved clip" record={(clip as Record<string, unknown> | undefined) ?? null} back={back}>
          {clip && <SavedClipPlayer session={session} clip={clip} />}
        </RecordDetail>
      );
    }
    const alert = alerts.find((a) => a.uuid === detail.id);
    return (
      <RecordDetail
        title={alert ? alertTitle(alert) : detail.id}
        kind="policy alert"
        record={(alert as Record<string, unknown> | undefined) ?? null}
        back={back}
      >
        {alert && <AlertClip session={session} alert={alert} />}
      </RecordDetail>
    );
  }

  return (
    <div class="alerts">
      <h1>Alerts and clips</h1>
      <p class="muted">
        The organization's policy alerts, newest first.{' '}
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </p>
      <p role="status" aria-live="polite">
        {status}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <section aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Alert feed</h2>
        {alerts === null ? (
          <p>Loading…</p>
        ) : alerts.length === 0 ? (
          <p class="muted">No alert: raise one in the simulator.</p>
        ) : (
          <ol class="entries" id="alert-feed" aria-label="Alerts">
            {alerts.map((a) => (
              <li key={a.uuid} data-uuid={a.uuid} class="alert-item">
                <MediaImage session={session} url={a.thumbnailLocationV2 ?? null} alt={`Alert ${a.uuid}: ${alertTitle(a)}`} class="alert-thumb" />
                <p>
                  <time>{new Date(a.timestampMs).toLocaleString()}</time> <strong>{a.policyAlertTriggers.join(', ')}</strong> {a.textDescription ?? ''}{' '}
                  <a href={detailHref('alerts', 'alert', a.uuid)}>
                    <code>{a.uuid}</code>
                  </a>
                </p>
                {playing === a.uuid && <AlertClip session={session} alert={a} />}
                <div class="row">
                  <button
                    type="button"
                    aria-label={`${playing === a.uuid ? 'Close' : 'Play'} clip of alert ${a.uuid}`}
                    onClick={() => setPlaying(playing === a.uuid ? null : a.uuid)}
                  >
                    {playing === a.uuid ? 'Close clip' : 'Play clip'}
                  </button>
                  <button
                    type="button"
                    aria-label={`Dismiss alert ${a.uuid}`}
                    onClick={() => void act('Alert dismissed', '/api/event/dismissPolicyAlertV2', { alertUuid: a.uuid })}
                  >
                    Dismiss
                  </button>
                  {a.saved ? (
                    <span class="muted">Saved as a clip</span>
                  ) : (
                    <button
                      type="button"
                      aria-label={`Save alert ${a.uuid}`}
                      onClick={() => void act('Alert saved as a clip', '/api/event/savePolicyAlertV2', { alertUuid: a.uuid })}
                    >
                      Save clip
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="clips-heading">
        <h2 id="clips-heading">Saved clips ({clips.length})</h2>
        {clips.length === 0 ? (
          <p class="muted">No saved clip.</p>
        ) : (
          <ol class="entries" id="saved-clips" aria-label="Saved clips">
            {clips.map((c) => (
              <li key={c.uuid} data-uuid={c.uuid} class="alert-item">
                <MediaImage session={session} url={c.thumbnailLocationV2 ?? null} alt={`Saved clip ${c.uuid}`} class="alert-thumb" />
                <p>
                  {c.timestampMs !== undefined && <time>{new Date(c.timestampMs).toLocaleString()}</time>} <strong>{clipTitle(c)}</strong> {c.status ?? ''}{' '}
                  <a href={detailHref('alerts', 'clip', c.uuid)}>
                    <code>{c.uuid}</code>
                  </a>
                </p>
                {playing === c.uuid && <SavedClipPlayer session={session} clip={c} />}
                <div class="row">
                  <button
                    type="button"
                    aria-label={`${playing === c.uuid ? 'Close' : 'Play'} saved clip ${c.uuid}`}
                    onClick={() => setPlaying(playing === c.uuid ? null : c.uuid)}
                  >
                    {playing === c.uuid ? 'Close clip' : 'Play clip'}
                  </button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
