// A first hour without surprises (issue 12): every documented error situation, run on the built binary,
// gives the documented exit code and a message that names the next step — never a stack trace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let dir: string;
let emu: Emulator;
let closedPort: number;
let profileDir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-next-'));
  writeFileSync(join(dir, 'message.yaml'), 'type: 1\nnotification:\n  title: Hello\n');
  emu = await createEmulator({ port: 0, rate: 0 });
  // A port that was just free: nothing listens there.
  const probe = await createEmulator({ port: 0 });
  closedPort = probe.port;
  await probe.close();
  profileDir = join(dir, 'two-regions');
  mkdirSync(profileDir);
  writeFileSync(join(profileDir, '.pushctlrc.json'), JSON.stringify({ profiles: { eu: { appId: 'demo-app', baseUrl: `http://127.0.0.1:${closedPort}` } } }));
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...extra });
const withSecret = (secret = 'demo-secret', extra: Record<string, string> = {}) => env({ PUSHCTL_APP_SECRET: secret, ...extra });

interface Situation {
  what: string;
  argv: () => string[];
  env?: () => Record<string, string | undefined>;
  exit: number;
  /** The message must say what went wrong … */
  says: RegExp;
  /** … and what to do next. */
  next: RegExp;
  /** … and no step that does not apply (a flag the user never gave). */
  notNext?: RegExp;
  /** … and says this part of the way out once, not in the error and again in a hint. */
  once?: RegExp;
  cwd?: () => string;
}

const SITUATIONS: Situation[] = [
  { what: 'a mistyped command after help', argv: () => ['help', 'sned'], exit: 2, says: /unknown command 'sned'/, next: /did you mean 'send'|pushctl help send/ },
  { what: 'send with no arguments', argv: () => ['send'], exit: 2, says: /nothing to send: a message needs content .* and recipients/, next: /pushctl send --all --title "Hello"/ },
  { what: 'the secret as a flag', argv: () => ['send', '--app-secret', 'top-secret-1', '--all', '--title', 'x'], exit: 2, says: /never a command-line flag/, next: /PUSHCTL_APP_SECRET.*--app-secret-file.*--app-secret-stdin/ },
  { what: 'a YAML message file', argv: () => ['validate', '-f', 'message.yaml'], exit: 3, says: /message files are JSON/, next: /pushctl schema/ },
  { what: 'a base URL with the push path', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--base-url', `${emu.url}/v1/message/push/demo-app`], env: () => withSecret(), exit: 6, says: /already contains the push path/, next: /only the scheme, host and port: http:\/\/127\.0\.0\.1:\d+\n/ },
  { what: 'nothing listening on a loopback URL', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--base-url', `http://127.0.0.1:${closedPort}`, '--max-attempts', '1'], env: () => withSecret(), exit: 5, says: /could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/, next: /pushctl serve/, once: /pushctl serve/ },
  // The base URL from a profile or the environment: the way out names that setting, not a flag never given.
  { what: "nothing listening at a profile's base URL", argv: () => ['send', '--profile', 'eu', '--all', '--title', 'x', '--max-attempts', '1'], env: () => env({ PUSHCTL_APP_SECRET_EU: 'demo-secret' }), cwd: () => profileDir, exit: 5, says: /could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/, next: /fix the base URL \(config .*\.pushctlrc\.json \(profile eu\)\)/, notNext: /--base-url/ },
  { what: 'nothing listening at PUSHCTL_BASE_URL', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--max-attempts', '1'], env: () => withSecret('demo-secret', { PUSHCTL_BASE_URL: `http://127.0.0.1:${closedPort}` }), exit: 5, says: /ECONNREFUSED/, next: /fix the base URL \(env PUSHCTL_BASE_URL\)/, notNext: /--base-url/ },
  // No journal and no report: nothing can list the recipients again, and the output says so, with the way to keep them.
  { what: 'recipients not sent with --no-journal and no --report', argv: () => ['send', '--app-id', 'demo-app', '--client-id', 'a,b', '--title', 'x', '--base-url', `http://127.0.0.1:${closedPort}`, '--no-journal'], env: () => withSecret(), exit: 5, says: /^2 recipients not sent: with --no-journal and no --report, nothing lists them to send again$/m, next: /^hint: add --report <path> to keep that list, or drop --no-journal$/m },
  { what: 'a message to all devices not sent with --no-journal', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--base-url', `http://127.0.0.1:${closedPort}`, '--no-journal'], env: () => withSecret(), exit: 5, says: /^the message to all devices not sent: with --no-journal and no --report, nothing lists it to send again$/m, next: /^hint: the same command sends it again, to all devices$/m },
  // check probes the same URL: its hint is the one way out, not a second copy of what the error says.
  { what: 'check with nothing listening on a loopback URL', argv: () => ['check', '--app-id', 'demo-app', '--base-url', `http://127.0.0.1:${closedPort}`], env: () => withSecret(), exit: 5, says: /could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/, next: /pushctl serve/, once: /pushctl serve/ },
  { what: 'check of a host name that does not resolve', argv: () => ['check', '--app-id', 'demo-app', '--base-url', 'https://no-such-host.invalid'], env: () => withSecret(), exit: 5, says: /DNS lookup of no-such-host\.invalid failed/, next: /--region/, once: /--region/ },
  { what: 'a host name that does not resolve', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--base-url', 'https://no-such-host.invalid'], env: () => withSecret(), exit: 5, says: /DNS lookup of no-such-host\.invalid failed.*after 1 attempt/, next: /--base-url.*--region/, once: /--region/ },
  { what: 'https to a plain-http server', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--base-url', emu.url.replace('http:', 'https:')], env: () => withSecret(), exit: 5, says: /seems to speak plain http/, next: /use http:\/\/127\.0\.0\.1:\d+ as the base URL/ },
  { what: 'a secret with a Bearer prefix', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--base-url', emu.url], env: () => withSecret('Bearer demo-secret'), exit: 4, says: /21004/, next: /drop the prefix|no "Bearer " or other prefix/ },
  { what: 'no secret at all', argv: () => ['send', '--app-id', 'demo-app', '--all', '--title', 'x', '--base-url', emu.url], env: () => env(), exit: 6, says: /secret/i, next: /PUSHCTL_APP_SECRET/ },
  { what: 'an unknown flag', argv: () => ['validate', '--titel', 'x'], exit: 2, says: /unknown option '--titel'/, next: /--title|--help/ },
];

describe('every error names the next step (built binary)', () => {
  for (const s of SITUATIONS) {
    it(`${s.what}: exit ${s.exit}`, async () => {
      const r = await runCli(s.argv(), { env: s.env?.() ?? env(), cwd: s.cwd?.() ?? dir });
      expect(r.code, r.stderr).toBe(s.exit);
      expect(r.stderr).toMatch(s.says);
      expect(r.stderr).toMatch(s.next);
      // Said once: a hint that repeats the error's own way out is noise the user reads twice.
      if (s.once) expect(r.stderr.match(new RegExp(s.once.source, 'gm')), r.stderr).toHaveLength(1);
      if (s.notNext) expect(r.stderr.split('\n').find((l) => s.says.test(l))).not.toMatch(s.notNext);
      expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
    });
  }
});
