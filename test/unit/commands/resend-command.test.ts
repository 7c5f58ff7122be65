import { describe, expect, it } from 'vitest';
import { resendCommand } from '../../../src/commands/shared/resend-command.js';

describe('the resend command needs no secret', () => {
  it('drops a --proxy that carries a credential (it would print as *** and not run), keeps one without', () => {
    const base = ['send', '--all', '--title', 'Hi'];
    expect(resendCommand([...base, '--proxy', 'http://ci:pw-9911@proxy:3128'], 'run.jsonl')).toBe('pushctl send --title Hi --client-ids-file run.jsonl --report run.jsonl.retry.json');
    expect(resendCommand([...base, '--proxy=http://tok_ABC123SECRET@proxy:3128'], 'run.jsonl')).not.toContain('proxy');
    expect(resendCommand([...base, '--proxy', 'http://proxy:3128'], 'run.jsonl')).toContain('--proxy http://proxy:3128');
  });
});
