import { fileTypeFromBuffer } from 'file-type';
import { uploadKey } from '../../footage/uploaded-files.js';

/** A ticket's attachment is at most 10 MB; a form carries one. */
export const ATTACHMENT_LIMITS = { maxBytes: 10 * 1024 * 1024, maxFiles: 1 } as const;

/** What support takes, by content (never by name): screenshots, documents, logs, archives of logs, recordings. */
const ACCEPTED: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  'video/mp4': 'mp4',
};

export interface CheckedAttachment {
  fileName: string;
  contentType: string;
  bytes: Buffer;
  /** Where the file is kept: built from RUUIDs and the extension of what it really is. */
  keyFor(orgUuid: string, ticketUuid: string): string;
}

/** Text without NUL bytes that decodes as UTF-8: a log or a note. */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decides what an attachment is by its content and refuses what support does not take (an executable, say)
 * or what is too large; answers why it refuses.
 */
export async function checkAttachment(fileName: string, bytes: Buffer | null): Promise<CheckedAttachment | { refused: string }> {
  if (!bytes) return { refused: `${fileName || 'file'}: is larger than ${ATTACHMENT_LIMITS.maxBytes / (1024 * 1024)} MB` };
  if (bytes.length === 0) return { refused: `${fileName || 'file'}: is empty` };
  const detected = await fileTypeFromBuffer(bytes);
  const type = detected
    ? ACCEPTED[detected.mime]
      ? { mime: detected.mime, ext: ACCEPTED[detected.mime] }
      : null
    : isText(bytes)
      ? { mime: 'text/plain', ext: 'txt' }
      : null;
  if (!type)
    return {
      refused: `${fileName || 'file'}: support takes PNG, JPEG, PDF, ZIP, gzip, MP4 or plain text files (its content is ${detected?.mime ?? 'binary of no known type'})`,
    };
  return { fileName, contentType: type.mime, bytes, keyFor: (orgUuid, ticketUuid) => uploadKey(orgUuid, 'support-attachments', ticketUuid, type.ext) };
}
