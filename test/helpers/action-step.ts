// The GitHub Action run as the runner runs it: `node action/index.js` (the committed bundle) with its inputs
// as INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files in a fresh workspace.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, runProcess } from './run-cli.js';
import { parseOutputFile } from './github-output.js';

export const ACTION = fileURLToPath(new URL('../../action/index.js', import.meta.url));

export interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs the action once in `workspace` (its HOME too) with these inputs and extra environment. */
export async function runStep(workspace: string, inputs: Record<string, string>, env: Record<string, string> = {}, onSpawn?: (child: ChildProcess) => void): Promise<StepRun> {
  const outputFile = join(workspace, 'github-output');
  const summaryFile = join(workspace, 'step-summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const inputEnv = Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]));
  const childEnv = cleanEnv({ HOME: workspace, XDG_CONFIG_HOME: join(workspace, '.config'), GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, ...inputEnv, ...env });
  const { code, stdout, stderr } = await runProcess(process.execPath, [ACTION], { cwd: workspace, env: childEnv, ...(onSpawn ? { onSpawn } : {}) });
  return { code, stdout, stderr, outputs: parseOutputFile(readFileSync(outputFile, 'utf8')), summary: readFileSync(summaryFile, 'utf8') };
}
