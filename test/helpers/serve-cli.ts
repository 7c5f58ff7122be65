// The built `pushctl serve` as a real process on port 0: the one helper that starts it and reads the URL it
// prints as its first line on stdout.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, cleanEnv } from './run-cli.js';

export interface ServedCli {
  url: string;
  child: ChildProcess;
  /** SIGTERM, resolved once it has exited. */
  stop(): Promise<void>;
}

export async function serveCli(args: readonly string[]): Promise<ServedCli> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: cleanEnv() as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`pushctl serve exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, child, stop };
}
