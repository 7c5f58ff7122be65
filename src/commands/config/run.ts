// `pushctl config`: each resolved setting and where it came from. The report is built in commands/shared/
// and printed by output/, because `pushctl check` shows it too.
import type { Ctx } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { printConfig, type ConfigOutcome } from '../../output/config-report.js';
import type { SecretSink } from '../../output/redact.js';
import { buildConfigReport } from '../shared/config-report.js';
import { runnable } from '../shared/runnable.js';
import { configOptionsSchema, type ConfigOptions } from './options.js';

export async function config(options: ConfigOptions, ctx: Ctx & { scrubber?: SecretSink }): Promise<ConfigOutcome> {
  return { exitCode: ExitCode.ok, report: await buildConfigReport(options, ctx, ctx.scrubber) };
}

export const command = runnable(configOptionsSchema, config, printConfig);
