// The package as a user gets it: `npm pack`, installed from the tarball into an empty project, used both as
// a command (`npx pushctl`) and as a library (ESM import, and TypeScript against the shipped declarations).
// Needs `npm run build` first, like the other e2e tests. The package has no runtime dependencies (dist/ is a
// complete bundle), so the install runs offline: it would fail if a dependency were needed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const INSTALL_TIMEOUT_MS = 120_000;
/**
 * What `npm pack` may weigh at most: the bundle, its declarations and schemas, no more. 450 kB (issue 19), and
 * 150 kB more for `pushctl mcp` and the MCP SDK it bundles (issue 30: at most 150 kB over the 443 kB of then).
 */
const MAX_PACKED_BYTES = 593_000;

/** Runs a program without a shell, with no npm settings of an outer `npm test` (npm_config_*) leaking in. */
function run(file: string, args: string[], cwd: string, timeout = INSTALL_TIMEOUT_MS) {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && !k.startsWith('PUSHCTL_')) env[k] = v;
  Object.assign(env, { NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });
  return runProcess(file, args, { cwd, env, timeout });
}

/** What `npm pack --json` says of the tarball it wrote. */
let packed: { size: number; files: { path: string }[] };
let work: string;
let app: string;

beforeAll(async () => {
  for (const built of ['dist/main.cjs', 'dist/lib.js', 'dist/types/lib.d.ts']) expect(existsSync(join(ROOT, built)), `${built}: run \`npm run build\` first`).toBe(true);
  work = mkdtempSync(join(tmpdir(), 'pushctl-pack-'));
  app = join(work, 'app');
  mkdirSync(app);
  const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  [packed] = JSON.parse(pack.stdout);
  const tarball = readdirSync(work).find((f) => /^pushctl-.*\.tgz$/.test(f));
  expect(tarball).toBeDefined();
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const install = await run('npm', ['install', join(work, tarball!), '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], app);
  expect(install.code, install.stderr).toBe(0);
}, INSTALL_TIMEOUT_MS * 2);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package, installed into an empty project', () => {
  it('ships the bundle, the bin and the declarations that package.json points at', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/pushctl/package.json'), 'utf8'));
    const dir = join(app, 'node_modules/pushctl');
    for (const file of [pkg.main, pkg.types, pkg.exports['.'].types, pkg.exports['.'].import, pkg.bin.pushctl]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    // The JSON Schema for message files' "$schema", generated at build time.
    const schema = JSON.parse(readFileSync(join(dir, 'dist/message.schema.json'), 'utf8'));
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it(`is plain JavaScript, no V8 data, and packs to under ${MAX_PACKED_BYTES / 1000} kB`, () => {
    // A V8 code cache fits one build of one Node.js version only (issue 19); Node 22+ keeps its own.
    expect(packed.files.map((f) => f.path).filter((path) => !/\.(c?js|d\.ts|json|html|css|svg|md)$/.test(path))).toEqual([]);
    expect(packed.size).toBeLessThan(MAX_PACKED_BYTES);
  });

  it('npx pushctl --help prints the usage (and never downloads a same-named package)', async () => {
    const r = await run('npx', ['--no', '--', 'pushctl', '--help'], app);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: pushctl /);
    expect(r.stdout).toContain('send');
    const version = await run('npx', ['--no', '--', 'pushctl', '--version'], app);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('imports PushClient, validateMessage and createEmulator, and sends to the emulator', async () => {
    writeFileSync(
      join(app, 'send.mjs'),
      `import { PushClient, validateMessage, createEmulator } from 'pushctl';
const emulator = await createEmulator({ port: 0 });
try {
  const result = validateMessage({ type: 1, time_to_live: 3600, condition: { type: 2, client_ids: ['device-1'] }, notification: { title: 'Hi' } });
  const invalid = validateMessage({ type: 1, time_to_live: 60, condition: { type: 1, targeting: { country: ['UK'] } }, notification: { title: 'Hi' } });
  const client = new PushClient({ baseUrl: emulator.url, appId: 'demo-app', appSecret: 'demo-secret', userAgent: 'consumer/1.0' });
  const outcome = await client.send(result.body);
  client.close();
  console.log(JSON.stringify({ errors: result.errors.length, invalid: invalid.errors.map((e) => e.path), outcome: outcome.kind, messageId: outcome.messageId, stored: emulator.messages('demo-app').map((m) => m.message_id) }));
} finally {
  await emulator.close();
}
`,
    );
    const r = await run(process.execPath, ['send.mjs'], app, 30_000);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ errors: 0, invalid: ['condition.targeting.country[0]'], outcome: 'accepted' });
    expect(out.stored).toEqual([out.messageId]);
  });

  it("simulates devices through the package's own exports, and its start-up failures are CliErrors with an exit code and a hint", async () => {
    writeFileSync(
      join(app, 'devices.mjs'),
      `import { createEmulator, fleetOf, checkDevices, syntheticFleet, CliError } from 'pushctl';
import { createServer } from 'node:net';
const fleet = fleetOf(checkDevices([
  { client_id: 'd-1', country: 'gb', language: 'en_GB', brand: 'Samsung', model: 'SM-A546B', os_version: 33, app_version: '3.1.0' },
  { client_id: 'd-2', country: 'US', language: 'en-US' },
]));
const emulator = await createEmulator({ port: 0, fleet });
const failures = [];
const failure = async (start) => { try { await start(); failures.push('started'); } catch (error) { failures.push(error instanceof CliError ? [error.exitCode, error.message, Boolean(error.hint)] : [error.constructor.name, error.message]); } };
try {
  const answer = await fetch(emulator.url + '/v1/message/push/demo-app', { method: 'POST', headers: { authorization: 'demo-secret' }, body: JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 1, targeting: { country: ['GB'] } }, notification: { title: 'Hi' } }) }).then((r) => r.json());
  const blocker = createServer();
  await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  await failure(() => createEmulator({ port: blocker.address().port }));
  blocker.close();
  await failure(() => createEmulator({ port: 0, apps: [{ id: 'my-app', secret: '' }] }));
  await failure(() => createEmulator({ port: 0, apps: [{ id: '', secret: 's' }] }));
  await failure(async () => checkDevices([{ client_id: 'd-1' }, { client_id: 'd-2', country: 'UK' }]));
  console.log(JSON.stringify({ status: answer.status, reached: emulator.messages().map((m) => [m.reached, m.fleet_size]), synthetic: syntheticFleet(50, 7).size, failures }));
} finally {
  await emulator.close();
}
`,
    );
    const r = await run(process.execPath, ['devices.mjs'], app, 30_000);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ status: 200, reached: [[1, 2]], synthetic: 50 });
    expect(out.failures).toEqual([
      [6, expect.stringMatching(/^cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)$/), true],
      [6, expect.stringContaining('app "my-app" has no secret'), true],
      [6, expect.stringContaining('an app has an empty ID'), true],
      [6, expect.stringMatching(/^device 2: country .*"UK"/), true],
    ]);
  });

  it('type-checks a TypeScript consumer against the shipped declarations', async () => {
    writeFileSync(
      join(app, 'consumer.ts'),
      `import { PushClient, validateMessage, createEmulator, type AttemptOutcome, type Emulator, type PushMessage, type ValidationResult } from 'pushctl';
const emulator: Emulator = await createEmulator({ port: 0, rate: 0 });
const result: ValidationResult = validateMessage({ type: 2, time_to_live: 60, condition: { type: 0 }, data: { k: 'v' } });
const body: PushMessage | undefined = result.body;
const client = new PushClient({ baseUrl: emulator.url, appId: 'demo-app', appSecret: 'demo-secret', userAgent: 'consumer/1.0' });
const outcome: AttemptOutcome = await client.send(body ?? {});
const id: string | undefined = outcome.kind === 'accepted' ? outcome.messageId : undefined;
// @ts-expect-error: the emulator has no such option, and the declarations say so.
await createEmulator({ prot: 0 });
// @ts-expect-error: a message type the service does not have (PushMessage is written out, not any).
const wrong: PushMessage = { type: 3, time_to_live: 60, condition: { type: 0 } };
export { id, wrong };
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          // The declarations themselves are checked too; Node's types come from this repository.
          skipLibCheck: false,
          typeRoots: [join(ROOT, 'node_modules/@types')],
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const r = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], app, 60_000);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it("ships the message types as the schema's own: the written-out PushMessage is exactly the z.infer of the sources", async () => {
    // The sources' types (z.infer, with this repository's zod) beside the package's (written out, no zod).
    writeFileSync(
      join(app, 'same.ts'),
      `import type { Condition, Notification, PushMessage, Targeting } from 'pushctl';
import type * as schema from ${JSON.stringify(join(ROOT, 'src/message/types.js'))};
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const same: true[] = [
  true satisfies Same<PushMessage, schema.PushMessage>,
  true satisfies Same<Condition, schema.Condition>,
  true satisfies Same<Targeting, schema.Targeting>,
  true satisfies Same<Notification, schema.Notification>,
];
`,
    );
    const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, typeRoots: [join(ROOT, 'node_modules/@types')], types: ['node'] };
    writeFileSync(join(app, 'tsconfig.same.json'), JSON.stringify({ compilerOptions: options, files: ['same.ts'] }));
    const r = await run(process.execPath, [TSC, '-p', 'tsconfig.same.json'], app, 60_000);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
