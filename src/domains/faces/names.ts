/**
 * How an uploaded file's name finds its person: case and white space do not count, so `grace hopper.jpg`,
 * `GraceHopper.png` and `Grace  Hopper.jpg` all match the person "Grace Hopper".
 */
export function personMatchKey(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/\s+/g, '');
}

/** A file name without any client path (some clients send `C:\\photos\\x.jpg`). */
export function baseFileName(fileName: string): string {
  return fileName.split(/[\\/]/).pop() ?? '';
}

/** The person's name an uploaded file stands for: its base name without the extension. */
export function personNameOfFile(fileName: string): string {
  const base = baseFileName(fileName);
  const dot = base.lastIndexOf('.');
  return (dot >= 0 ? base.slice(0, dot) : base).trim();
}
