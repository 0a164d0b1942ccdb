/** The parts of mpd-parser (a DASH manifest parser, no types of its own) that the tests read. */
declare module 'mpd-parser' {
  export interface ParsedSegment {
    uri: string;
    resolvedUri: string;
    duration: number;
    number: number;
    timeline: number;
    map?: { uri: string; resolvedUri: string };
  }
  export interface ParsedPlaylist {
    attributes: { NAME?: string; CODECS?: string; RESOLUTION?: { width: number; height: number }; BANDWIDTH?: number };
    segments: ParsedSegment[];
    targetDuration: number;
    endList: boolean;
  }
  export interface ParsedManifest {
    duration: number;
    endList: boolean;
    minimumUpdatePeriod?: number;
    playlists: ParsedPlaylist[];
    /** Audio-only adaptation sets: by group, then by language. */
    mediaGroups?: { AUDIO?: Record<string, Record<string, { playlists: ParsedPlaylist[] }>> };
  }
  export function parse(manifest: string, options?: { manifestUri?: string; NOW?: number; clientOffset?: number }): ParsedManifest;
  const mpdParser: { parse: typeof parse };
  export default mpdParser;
}
