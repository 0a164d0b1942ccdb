import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Session } from '../api';

interface Alert {
  uuid: string;
  deviceUuid: string;
  timestampMs: number;
  textDescription: string | null;
  policyAlertTriggers: string[];
  saved: boolean;
}
interface SavedClip {
  uuid: string;
  title?: string | null;
  savedClipTitle?: string | null;
  alertUuid?: string | null;
  status?: string;
}

/** The alert feed (dismiss, save as a clip) and the saved clips. Playing clips waits on the media plane's DASH streams. */
export function AlertsView({ session }: { session: Session }) {
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [clips, setClips] = useState<SavedClip[]>([]);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');

  const load = async () => {
    try {
      const [a, c] = await Promise.all([
        api<{ policyAlerts: Alert[] }>(session, '/api/event/getPolicyAlertsV2', { maxResults: 100 }),
        api<{ savedClips?: SavedClip[] }>(session, '/api/event/getSavedClipsV2', {}),
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
                <p>
                  <time>{new Date(a.timestampMs).toLocaleString()}</time> <strong>{a.policyAlertTriggers.join(', ')}</strong> {a.textDescription ?? ''}{' '}
                  <code>{a.uuid}</code>
                </p>
                <div class="row">
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
          <ul>
            {clips.map((c) => (
              <li key={c.uuid}>
                {c.savedClipTitle ?? c.title ?? 'Clip'} <code>{c.uuid}</code> {c.status ?? ''}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
