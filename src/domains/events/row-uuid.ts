/**
 * A stable RUUID for a record kept under a numeric row id: 16 bytes, a short tag (which table) in the
 * first eight and the id big-endian in the last eight, so two tables' rows never share a uuid.
 */
export function rowUuid(tag: string, id: number): string {
  const bytes = Buffer.alloc(16);
  bytes.write(tag.slice(0, 8), 0, 'latin1');
  bytes.writeBigUInt64BE(BigInt(id), 8);
  return bytes.toString('base64url');
}
