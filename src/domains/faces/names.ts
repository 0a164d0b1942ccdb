/**
 * How an uploaded file's name finds its person: case and white space do not count, so `grace hopper.jpg`,
 * `GraceHopper.png` and `Grace  Hopper.jpg` all match the person "Grace Hopper".
 */
export function personMatchKey(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/\s+/g, '');
}

/** The person's name an uploaded file stands for: its base name without the extension (and without any client path). */
export function personNameOfFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return (dot >= 0 ? base.slice(0, dot) : base).trim();
}
