import { SEGMENT, SEGMENT_MS } from './segments.js';

/**
 * The manifests of a camera's footage, as the platform's clients read them (client-calls.md, M2 to M7): an MPD
 * with exactly one Period / AdaptationSet / SegmentTemplate (`initialization="seg_init.mp4"`,
 * `media="seg_$Number$.m4v"`, `startNumber`), and HLS media playlists naming the same fMP4 segments. Segment URLs
 * are relative to the manifest: a client that replaces the manifest's file name with a segment's finds it.
 *
 * VOD (a window of `durationSec` from `startSec`): segment n (from 1) covers [start + (n - 1) x 2 s, + 2 s), on a
 * time line that starts at 0 at the window's start. Live: segment n covers [n x 2 s, + 2 s) of the epoch, the
 * presentation starting at the epoch (availabilityStartTime 1970-01-01), so that the wall clock names the segment.
 */
export const MANIFEST = {
  /** The longest VOD window served (seconds). */
  maxWindowSec: 3 * 3600,
  /** How far back footage is kept (the window's start may not be older). */
  retentionMs: 30 * 24 * 3600 * 1000,
  /** Live: segments listed in the live playlist and kept behind the live edge. */
  liveWindowSegments: 5,
  liveRetainSegments: 30,
} as const;

/** The number of segments of a window (the last one may run past the window's end). */
export const segmentCount = (durationSec: number) => Math.ceil(durationSec / SEGMENT.seconds);

/** `avc1.PPCCLL` from the initialization segment's avcC box (profile, constraints, level). */
export function codecsOf(init: Buffer): string {
  const at = init.indexOf('avcC', 0, 'latin1');
  if (at < 0 || at + 8 > init.length) return 'avc1.42c01f';
  return `avc1.${init.subarray(at + 5, at + 8).toString('hex')}`;
}

const xmlDuration = (seconds: number) => `PT${Number(seconds.toFixed(3))}S`;

function representation(codecs: string): string {
  return [
    `      <SegmentTemplate timescale="${SEGMENT.timescale}" duration="${SEGMENT_MS * (SEGMENT.timescale / 1000)}" startNumber="%START%" initialization="seg_init.mp4" media="seg_$Number$.m4v"/>`,
    `      <Representation id="video" mimeType="video/mp4" codecs="${codecs}" width="${SEGMENT.width}" height="${SEGMENT.height}" frameRate="${SEGMENT.fps}" bandwidth="2500000" sar="1:1" startWithSAP="1"/>`,
  ].join('\n');
}

function mpd(attributes: string, period: string, startNumber: number, codecs: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" minBufferTime="PT2S" ${attributes}>`,
    `  <Period id="0" ${period}>`,
    '    <AdaptationSet id="0" contentType="video" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">',
    representation(codecs).replace('%START%', String(startNumber)),
    '    </AdaptationSet>',
    '  </Period>',
    '</MPD>',
    '',
  ].join('\n');
}

/** The static MPD of a VOD window. */
export function vodMpd(durationSec: number, codecs: string): string {
  return mpd(`type="static" mediaPresentationDuration="${xmlDuration(durationSec)}"`, 'start="PT0S"', 1, codecs);
}

const isoTime = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

/** The newest live segment whose time has fully passed at `nowMs`. */
export const liveEdge = (nowMs: number) => Math.floor(nowMs / SEGMENT_MS) - 1;

/** Whether live segment n may be served at `nowMs`: its time has passed, and not too long ago. */
export const liveServable = (n: number, nowMs: number) => n <= liveEdge(nowMs) && n > liveEdge(nowMs) - MANIFEST.liveRetainSegments;

/** The dynamic MPD of the live stream at `nowMs`: the wall clock names the segment (startNumber 0 at the epoch). */
export function liveMpd(nowMs: number, codecs: string): string {
  const depth = MANIFEST.liveRetainSegments * SEGMENT.seconds - SEGMENT.seconds;
  return mpd(
    [
      'type="dynamic"',
      'availabilityStartTime="1970-01-01T00:00:00Z"',
      `publishTime="${isoTime(Math.floor(nowMs / 1000) * 1000)}"`,
      `minimumUpdatePeriod="PT${SEGMENT.seconds}S"`,
      `timeShiftBufferDepth="PT${depth}S"`,
      `suggestedPresentationDelay="PT${SEGMENT.seconds * 3}S"`,
    ].join(' '),
    'start="PT0S"',
    0,
    codecs,
  );
}

function playlist(head: string[], numbers: number[], end: boolean): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${SEGMENT.seconds}`,
    `#EXT-X-MEDIA-SEQUENCE:${numbers[0] ?? 0}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
    ...head,
    '#EXT-X-MAP:URI="seg_init.mp4"',
  ];
  for (const n of numbers) lines.push(`#EXTINF:${SEGMENT.seconds.toFixed(3)},`, `seg_${n}.m4v`);
  if (end) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** The HLS media playlist of a VOD window (fMP4 segments, seg_1.m4v on). */
export function vodPlaylist(durationSec: number): string {
  return playlist(
    ['#EXT-X-PLAYLIST-TYPE:VOD'],
    Array.from({ length: segmentCount(durationSec) }, (_, i) => i + 1),
    true,
  );
}

/** The live HLS playlist at `nowMs`: the newest segments, named by the wall clock. */
export function livePlaylist(nowMs: number): string {
  const edge = liveEdge(nowMs);
  return playlist(
    [],
    Array.from({ length: MANIFEST.liveWindowSegments }, (_, i) => edge - MANIFEST.liveWindowSegments + 1 + i),
    false,
  );
}

/**
 * The static MPD of a window of recorded audio (src/footage/audio-segments.ts): one Period with one audio
 * AdaptationSet, `seg_init.mp4` and `seg_<n>.m4a` from 1, 2 seconds each.
 */
export function audioVodMpd(durationSec: number, sampleRate: number, codecs: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" minBufferTime="PT2S" type="static" mediaPresentationDuration="${xmlDuration(durationSec)}">`,
    '  <Period id="0" start="PT0S">',
    '    <AdaptationSet id="0" contentType="audio" mimeType="audio/mp4" segmentAlignment="true" startWithSAP="1" lang="und">',
    `      <SegmentTemplate timescale="${sampleRate}" duration="${SEGMENT.seconds * sampleRate}" startNumber="1" initialization="seg_init.mp4" media="seg_$Number$.m4a"/>`,
    `      <Representation id="audio" codecs="${codecs}" audioSamplingRate="${sampleRate}" bandwidth="32000">`,
    '        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="1"/>',
    '      </Representation>',
    '    </AdaptationSet>',
    '  </Period>',
    '</MPD>',
    '',
  ].join('\n');
}
