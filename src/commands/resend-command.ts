// Builds "the one command that resends exactly the unknown and not_sent IDs": the user's own command
// line with its recipients and report path replaced by the report just written.

/** Flags whose values choose recipients or the report, and so must not be repeated in the resend command. */
const DROP_WITH_VALUE = new Set(['--client-ids-file', '--report', '--country', '--language', '--brand', '--model', '--os-version', '--app-version']);

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function resendCommand(argv: readonly string[], reportPath: string): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const name = word.split('=')[0]!;
    if (name === '--all') continue;
    if (name === '--client-id') {
      // Variadic: its values run until the next option.
      if (!word.includes('=')) while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) i++;
      continue;
    }
    if (DROP_WITH_VALUE.has(name)) {
      if (!word.includes('=')) i++;
      continue;
    }
    kept.push(word);
  }
  const next = reportPath.replace(/(\.json)?$/, '.retry.json');
  return ['pushctl', ...kept, '--client-ids-file', reportPath, '--report', next].map(shellQuote).join(' ');
}
