import type { Ctx } from '../context.js';
import type { SecretSink } from '../output/redact.js';
import { envelopeText, snakeKeys } from '../output/envelope.js';
import { ExitCode } from '../errors.js';
import type { SettingsOptions } from '../settings/load-settings.js';
import { formatConfigReport, type ConfigReport } from '../output/config-report.js';
import { buildConfigReport } from './shared/config-report.js';

// The report is built in commands/shared/ and formatted in output/, because `pushctl check` shows it too.
export { buildConfigReport, formatConfigReport, type ConfigReport };

export interface ShowConfigOptions extends SettingsOptions {
  /** Print one JSON document instead of the human table. */
  json?: boolean;
}

/**
 * `pushctl config`: shows each resolved setting and where it came from. Writes the table (or with `json`,
 * one JSON document) to stdout and, in human mode, warnings to stderr; returns the report.
 */
export async function showConfig(options: ShowConfigOptions, ctx: Ctx, secrets?: SecretSink): Promise<ConfigReport> {
  const report = await buildConfigReport(options, ctx, secrets);
  if (options.json) {
    ctx.stdout.write(envelopeText(0, snakeKeys(report) as object));
  } else {
    ctx.stdout.write(formatConfigReport(report));
    for (const warning of report.warnings) ctx.stderr.write(`warning: ${warning}\n`);
  }
  return report;
}

/** The CLI's entry point: the `(options, ctx, scrubber) → exit code` shape cli.ts runs. */
export async function configCommand(options: ShowConfigOptions, ctx: Ctx, secrets?: SecretSink): Promise<number> {
  await showConfig(options, ctx, secrets);
  return ExitCode.ok;
}
