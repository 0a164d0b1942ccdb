/** Free-text labels of a location, unique per location (locations.service.ts). */
export interface LocationLabelsTable {
  location_uuid: string;
  org_uuid: string;
  label: string;
}

export interface LocationTables {
  location_labels: LocationLabelsTable;
}
