// The compose panel says the CLI's findings with its fields' names; what a field was given, quoted back, stays
// as typed.
import { describe, expect, it } from 'vitest';
import { inPanelTerms } from '../../../../src/emulator/web/panel-terms.js';

describe('inPanelTerms', () => {
  it("names a flag as the field's label", () => {
    expect(inPanelTerms('--ttl "1w2" is not a duration')).toBe('TTL "1w2" is not a duration');
    expect(inPanelTerms('add --title or --desc')).toBe('add title or text');
  });

  // Reworded, a TTL typed as "--title" read as if the title had been typed there.
  it('keeps a quoted value as typed', () => {
    expect(inPanelTerms('--ttl "--title" is not a duration')).toBe('TTL "--title" is not a duration');
  });
});
