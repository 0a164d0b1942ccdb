/** What the organization's TV app shows (tv-configs.service.ts): per TV, the video walls it is limited to. */
export interface TvosConfigsTable {
  org_uuid: string;
  /** The TV's id, chosen by the app: unique within the organization. */
  uuid: string;
  /** JSON array of video wall uuids; empty means every wall. */
  limited_video_wall_uuids: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface VideoWallTables {
  tvos_configs: TvosConfigsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends VideoWallTables {}
}
