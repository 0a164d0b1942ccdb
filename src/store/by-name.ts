/**
 * Name to uuid over an organization's records, the first of each name winning (the order the rows come in):
 * how a site file seeded again finds the entries it made, to update or keep them instead of making them twice.
 */
export function firstByName(rows: ReadonlyArray<{ name: string; uuid: string }>): Map<string, string> {
  const byName = new Map<string, string>();
  for (const row of rows) if (!byName.has(row.name)) byName.set(row.name, row.uuid);
  return byName;
}
