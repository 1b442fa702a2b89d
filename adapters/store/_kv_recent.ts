/** What this process last wrote or read, for the most recently used names (a forgotten one is read from the store). */
export class Recent<V> {
  readonly #limit: number;
  readonly #values = new Map<string, V>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(name: string): V | undefined {
    return this.#values.get(name);
  }

  set(name: string, value: V): void {
    this.#values.delete(name);
    if (this.#values.size >= this.#limit) this.#values.delete(this.#values.keys().next().value!);
    this.#values.set(name, value);
  }

  delete(name: string): void {
    this.#values.delete(name);
  }
}
