/** Audio clips of the organization that its audio gateways play (audio-playback/service.ts). */
export interface AudioUploadsTable {
  uuid: string;
  org_uuid: string;
  display_name: string;
  description: string | null;
  audio_plaintext: string | null;
  audio_ssml: string | null;
  voice_id: string | null;
  duration_ms: number;
  /** The clip's file on the media storage (src/footage/uploaded-files.ts). */
  media_key: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface AudioPlaybackTables {
  audio_uploads: AudioUploadsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends AudioPlaybackTables {}
}
