/**
 * A map of values held within a total size (a value's length: bytes of a Buffer, characters of a string), the
 * least recently used going first when a new one needs the room. A value larger than the whole bound is not held.
 * The media host's hot segments and the camera list's kept states use it.
 */
export class SizedLru<V extends { length: number }> {
  private readonly held = new Map<string, V>();
  private size = 0;

  constructor(private readonly maxSize: number) {}

  /** The value, now the most recently used (a Map iterates in insertion order: it moves to the end). */
  get(key: string): V | undefined {
    const value = this.held.get(key);
    if (value !== undefined) {
      this.held.delete(key);
      this.held.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    if (value.length > this.maxSize) return;
    this.held.set(key, value);
    this.size += value.length;
    while (this.size > this.maxSize) this.delete(this.held.keys().next().value!);
  }

  delete(key: string): void {
    const value = this.held.get(key);
    if (value === undefined) return;
    this.held.delete(key);
    this.size -= value.length;
  }
}
