import { useEffect, useState } from 'preact/hooks';
import { errorText, type Session } from '../api';
import { frameUrl, mediaUris, vodMpd, type MediaUris } from '../media';
import { DashPlayer, MediaImage } from '../player';

/** `datetime-local`'s value for an instant, in the browser's time zone. */
const localInput = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/** Recorded footage must have ended: the media host answers a window that ends in the future with 400. */
const LATEST_END_MS = 4_000;

/**
 * A camera's pictures: a still of now (refreshed on demand) and a player of its live stream or of a window of its
 * recorded footage, both DASH from the media host (camera/getMediaUris).
 */
export function CameraMedia({ session, cameraUuid, name }: { session: Session; cameraUuid: string; name: string }) {
  const [links, setLinks] = useState<MediaUris | null>(null);
  const [error, setError] = useState('');
  const [stillAt, setStillAt] = useState(() => Date.now() - 2000);
  const [mode, setMode] = useState<'live' | 'recorded'>('live');
  const [start, setStart] = useState(() => localInput(Date.now() - 5 * 60_000));
  const [duration, setDuration] = useState('60');
  const [recording, setRecording] = useState<string | null>(null);
  const [formError, setFormError] = useState('');

  useEffect(() => {
    mediaUris(session, cameraUuid).then(setLinks, (e: unknown) => setError(errorText(e)));
  }, [session.apiKey, cameraUuid]);

  if (error) return <p role="alert" class="error">{`No footage: ${error}`}</p>;
  if (!links) return <p aria-live="polite">Asking for the camera's media links…</p>;

  const playRecording = (e: Event) => {
    e.preventDefault();
    const startMs = new Date(start).getTime();
    const seconds = Number(duration);
    if (!Number.isFinite(startMs)) return setFormError('Give a start time.');
    if (!Number.isInteger(seconds) || seconds < 2 || seconds > 10_800) return setFormError('The duration is 2 to 10,800 seconds.');
    if (startMs + seconds * 1000 > Date.now() - LATEST_END_MS) return setFormError('That window has not been recorded yet: it must end in the past.');
    setFormError('');
    setRecording(vodMpd(links.wanVodMpdUriTemplate, startMs, seconds));
  };

  return (
    <div class="camera-media">
      <section aria-labelledby="still-heading" class="still">
        <h2 id="still-heading">Live still</h2>
        <MediaImage session={session} url={frameUrl(links.wanLiveMpdUri, cameraUuid, stillAt)} alt={`${name} at ${new Date(stillAt).toLocaleTimeString()}`} />
        <p>
          <button type="button" onClick={() => setStillAt(Date.now() - 2000)}>
            Refresh still
          </button>
        </p>
      </section>
      <section aria-labelledby="player-heading">
        <h2 id="player-heading">Footage</h2>
        <fieldset class="row">
          <legend>Play</legend>
          <label class="check">
            <input type="radio" name="footage" value="live" checked={mode === 'live'} onChange={() => setMode('live')} />
            <span>Live</span>
          </label>
          <label class="check">
            <input type="radio" name="footage" value="recorded" checked={mode === 'recorded'} onChange={() => setMode('recorded')} />
            <span>Recorded</span>
          </label>
        </fieldset>
        {mode === 'live' ? (
          <DashPlayer session={session} src={links.wanLiveMpdUri} label={`${name}, live`} />
        ) : (
          <>
            <form class="row" onSubmit={playRecording}>
              <label>
                <span>Start</span>
                <input id="recording-start" type="datetime-local" value={start} onInput={(e) => setStart(e.currentTarget.value)} required />
              </label>
              <label>
                <span>Duration (seconds)</span>
                <input
                  id="recording-duration"
                  type="number"
                  min={2}
                  max={10800}
                  value={duration}
                  onInput={(e) => setDuration(e.currentTarget.value)}
                  required
                />
              </label>
              <button type="submit">Play recording</button>
            </form>
            {formError && (
              <p role="alert" class="error">
                {formError}
              </p>
            )}
            {recording && <DashPlayer session={session} src={recording} label={`${name}, recorded`} />}
          </>
        )}
      </section>
    </div>
  );
}
