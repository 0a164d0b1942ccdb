import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type Session } from './api';
import { fetchMedia, loadDash } from './media';

/** dash.js's log levels (a const enum in its types, which an isolated build cannot read). */
const LOG_LEVEL_ERROR = 2;

/**
 * A DASH player (dash.js) for a manifest of the media host: live (`dynamic`) or recorded (`static`). Its requests
 * carry the key as the API's do. Muted, so that the browser lets it start by itself.
 */
export function DashPlayer({ session, src, label }: { session: Session; src: string; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let player: import('dashjs').MediaPlayerClass | null = null;
    let closed = false;
    setError('');
    loadDash().then(
      ({ MediaPlayer }) => {
        if (closed || !video.current) return;
        player = MediaPlayer().create();
        player.updateSettings({
          debug: { logLevel: LOG_LEVEL_ERROR as never },
          // The media host's own clock names the live segments; no time server elsewhere (the page may reach none).
          streaming: { utcSynchronization: { enabled: false, useManifestDateHeaderTimeSource: false } },
        });
        player.addRequestInterceptor(async (request) => {
          request.headers = { ...request.headers, 'x-auth-apikey': session.apiKey ?? '' };
          return request;
        });
        player.on('error', (e: { error?: { message?: string } | string }) => {
          setError(typeof e.error === 'string' ? e.error : (e.error?.message ?? 'the player failed'));
        });
        player.initialize(video.current, src, true);
      },
      (e: unknown) => setError(errorText(e)),
    );
    return () => {
      closed = true;
      player?.destroy();
    };
  }, [src, session.apiKey]);
  return (
    <figure class="player">
      <video ref={video} controls muted playsInline aria-label={label} data-src={src} />
      <PlayerCaption label={label} error={error} />
    </figure>
  );
}

/** A picture or an MP4 file of the media host, fetched with the key and shown from a blob: URL. */
function useMedia(session: Session, url: string | null): { blob: string | null; error: string } {
  const [state, setState] = useState<{ blob: string | null; error: string }>({ blob: null, error: '' });
  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    let blob: string | null = null;
    setState({ blob: null, error: '' });
    fetchMedia(session, url, abort.signal).then(
      (b) => {
        blob = b;
        setState({ blob: b, error: '' });
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setState({ blob: null, error: errorText(e) });
      },
    );
    return () => {
      abort.abort();
      if (blob) URL.revokeObjectURL(blob);
    };
  }, [url, session.apiKey]);
  return state;
}

/** A JPEG of the media host (a thumbnail, a camera's frame). */
export function MediaImage({ session, url, alt, class: className }: { session: Session; url: string | null; alt: string; class?: string }) {
  const { blob, error } = useMedia(session, url);
  if (!url) return null;
  if (error) return <span class={`thumb thumb-missing ${className ?? ''}`}>{`No picture: ${error}`}</span>;
  if (!blob) return <span class={`thumb thumb-loading ${className ?? ''}`} aria-busy="true" aria-label={`${alt} (loading)`} />;
  return <img class={`thumb ${className ?? ''}`} src={blob} alt={alt} width={480} height={270} />;
}

/** A stored MP4 file of the media host (a saved clip's video). */
export function Mp4Player({ session, url, label }: { session: Session; url: string; label: string }) {
  const { blob, error } = useMedia(session, url);
  return (
    <figure class="player">
      {blob ? <video src={blob} controls muted playsInline autoplay aria-label={label} /> : <p aria-busy={!error}>{error ? '' : 'Loading the video…'}</p>}
      <PlayerCaption label={label} error={error} />
    </figure>
  );
}

/** A player's caption: its label, and why playback failed (announced to screen readers). */
function PlayerCaption({ label, error }: { label: string; error: string }) {
  return (
    <figcaption>
      {label}
      {error && (
        <span role="alert" class="error">
          {' '}
          {`Playback failed: ${error}`}
        </span>
      )}
    </figcaption>
  );
}
