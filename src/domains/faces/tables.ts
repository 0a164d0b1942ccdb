/** A person known by face (not an API user). */
export interface PeopleTable {
  uuid: string;
  org_uuid: string;
  name: string;
  created_at_ms: number;
}

export interface FaceTables {
  people: PeopleTable;
}
