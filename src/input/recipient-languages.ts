// The language of each client ID read from a CSV's `language` column (docs/behaviour.md#variants), by the
// ID's position in the list: it travels beside the IDs, as the IDs themselves travel beside the message.

export class RecipientLanguages {
  private readonly values: (string | undefined)[] = [];
  // A fleet has a few dozen languages among a million devices: one string each, shared by every position.
  private readonly interned = new Map<string, string>();

  /** The language of the ID at `position` (blank: unknown). */
  set(position: number, language: string): void {
    const tag = language.trim();
    if (tag === '') return;
    let shared = this.interned.get(tag);
    if (shared === undefined) this.interned.set(tag, (shared = tag));
    this.values[position] = shared;
  }

  at(position: number): string | undefined {
    return this.values[position];
  }
}
