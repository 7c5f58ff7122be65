// commander gives an option that takes a value whatever argument comes next, so `--client-id --title x`
// sends "--title" as a client ID and silently drops the title. A value that looks like a flag is refused
// here, for every option that takes a value; `--client-id=--odd` still says it deliberately.
import type { Command, Option } from 'commander';
import { usageError } from './errors.js';

/** A flag is a dash or two and a letter: "-" (stdin), "-5" (a number) and "- item" (text) are values. */
const looksLikeFlag = (arg: string): boolean => /^--?[A-Za-z]/.test(arg);

/** Throws a usage error when an option that needs a value is followed by something that looks like a flag. */
export function checkFlagValues(argv: readonly string[], command: Command): void {
  const options: Option[] = [];
  for (let c: Command | null = command; c; c = c.parent) options.push(...c.options);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return;
    const option = arg.startsWith('--') ? options.find((o) => o.long === arg) : /^-[^-]$/.test(arg) ? options.find((o) => o.short === arg) : undefined;
    if (!option?.required) continue;
    const value = argv[i + 1];
    if (value !== undefined && looksLikeFlag(value)) {
      const name = option.long ?? arg;
      throw usageError(`${arg} needs a value, but the next argument "${value}" looks like a flag`, `give ${arg} its value; if "${value}" really is the value, write ${name}=${value}`);
    }
    i++;
  }
}
