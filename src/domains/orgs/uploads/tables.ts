/** Images the organization uploaded (uploads/service.ts): logos, floor plans, badge template images, profile photos. */
export interface UploadedImagesTable {
  uuid: string;
  org_uuid: string;
  /** What the image is for: one of IMAGE_PURPOSES. */
  purpose: string;
  /** What it belongs to: a location's floor plan, a user's photo; null for the organization's own. */
  target_uuid: string | null;
  file_name: string;
  content_type: string;
  byte_size: number;
  width: number;
  height: number;
  /** The file on the media storage (src/footage/uploaded-files.ts). */
  media_key: string;
  created_at_ms: number;
}

export interface UploadTables {
  uploaded_images: UploadedImagesTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends UploadTables {}
}
