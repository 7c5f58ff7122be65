// No function in src/ is over 80 lines, and the linter, not review, keeps it so (eslint.config.js): a function
// of 81 counted lines fails `npm run lint`. Blank lines and comments are not counted.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** A function of `statements` counted lines in all: its header, one line per statement, its closing brace. */
function functionOf(statements: number, padding = ''): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};${padding}`).join('\n');
  return `export function probe(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
}

async function lengthErrors(code: string, filePath = 'src/client/probe.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'max-lines-per-function').map((m) => m.message);
}

describe('function length', () => {
  it('rejects an 81-line function in src/', async () => {
    // 1 header + 1 declaration + 77 statements + 1 return + 1 closing brace = 81 lines.
    const errors = await lengthErrors(functionOf(77));
    expect(errors.join('\n')).toContain('has too many lines (81). Maximum allowed is 80');
  });

  it('accepts an 80-line function', async () => {
    expect(await lengthErrors(functionOf(76))).toEqual([]);
  });

  it('does not count blank lines and comments, so a comment that says why costs nothing', async () => {
    const commented = functionOf(76).replace('  let total = 0;\n', '  let total = 0;\n\n  // Why: a comment.\n  /* and another */\n\n');
    expect(await lengthErrors(commented)).toEqual([]);
  });

  it('holds for every folder of src/, the commands as much as the client', async () => {
    for (const file of ['src/commands/probe.ts', 'src/emulator/probe.ts', 'src/cli.ts']) {
      expect(await lengthErrors(functionOf(77), file)).toHaveLength(1);
    }
  });
});
