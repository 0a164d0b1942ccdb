/**
 * Footage and pictures from the media host (another origin: the content-security-policy allows it for img, media
 * and connect). The media host takes the same key headers as the API, which an <img> or <video> cannot send: pictures
 * and MP4 files are fetched with the key and shown from blob: URLs; DASH goes through dash.js, whose requests get the
 * key from an interceptor. dash.js is loaded (a chunk of this bundle) when a player first opens.
 */
import { api, type Session } from './api';

export interface MediaUris {
  wanLiveMpdUri: string;
  wanVodMpdUriTemplate: string;
}

const uris = new Map<string, Promise<MediaUris>>();

/** A camera's DASH links (camera/getMediaUris), asked once per camera and key. */
export function mediaUris(session: Session, cameraUuid: string): Promise<MediaUris> {
  const key = `${session.apiKey}:${cameraUuid}`;
  let found = uris.get(key);
  if (!found) {
    found = api<MediaUris>(session, '/api/camera/getMediaUris', { cameraUuid });
    found.catch(() => uris.delete(key));
    uris.set(key, found);
  }
  return found;
}

/** The VOD manifest of a window of recorded footage: `{START_TIME}` epoch seconds, `{DURATION}` seconds. */
export function vodMpd(template: string, startMs: number, durationSec: number): string {
  return template.replace('{START_TIME}', String(Math.floor(startMs / 1000))).replace('{DURATION}', String(Math.round(durationSec)));
}

/** The media host's address of a camera's frame at an instant (480x270 JPEG), beside its DASH links. */
export function frameUrl(liveMpd: string, cameraUuid: string, timestampMs: number): string {
  return `${new URL(liveMpd).origin}/media/frame/${cameraUuid}/${Math.floor(timestampMs)}/thumb.jpeg`;
}

/** A media-host file fetched with the key, as a blob: URL (the caller revokes it). */
export async function fetchMedia(session: Session, url: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(url, { headers: { 'x-auth-apikey': session.apiKey ?? '' }, signal });
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try {
      message = ((await response.json()) as { errorMsg?: string }).errorMsg ?? message;
    } catch {
      // not JSON: the status says it
    }
    throw new Error(message);
  }
  return URL.createObjectURL(await response.blob());
}

type DashModule = typeof import('dashjs');
let dashjs: Promise<DashModule> | null = null;

/** dash.js, loaded once. */
export function loadDash(): Promise<DashModule> {
  dashjs ??= import('dashjs');
  return dashjs;
}
