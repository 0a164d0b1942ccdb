/** Free-text labels of a location, unique per location (locations.service.ts). */
export interface LocationLabelsTable {
  location_uuid: string;
  org_uuid: string;
  label: string;
}

export interface LocationTables {
  location_labels: LocationLabelsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends LocationTables {}
}
