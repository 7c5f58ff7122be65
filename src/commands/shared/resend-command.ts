// Builds "the one command that resends exactly the unknown and not_sent IDs": the user's own command
// line with its recipients replaced by the run's journal (or report), and a new report path.

/** Flags whose values choose recipients or the report, and so must not be repeated in the resend command. */
const DROP_WITH_VALUE = new Set(['--client-ids-file', '--report', '--journal', '--country', '--language', '--brand', '--model', '--os-version', '--app-version']);

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `source` is what `--client-ids-file` reads (a journal or a report: both yield their unknown and not_sent
 * IDs); the next run writes its report beside `reportPath` when there was one.
 */
export function resendCommand(argv: readonly string[], source: string, reportPath: string | undefined = source): string {
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
  const next = reportPath === undefined ? [] : ['--report', reportPath.replace(/(\.json)?$/, '.retry.json')];
  return ['pushctl', ...kept, '--client-ids-file', source, ...next].map(shellQuote).join(' ');
}
