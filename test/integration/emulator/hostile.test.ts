// Hostile input to the emulator (issue 21): a web page the developer visits must not reach a loopback
// emulator through DNS rebinding, so only loopback Host names (or the --host given) are answered.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** A GET with a chosen Host header (fetch does not let a caller set it). */
function getWithHost(url: string, path: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Host header when bound to loopback (DNS rebinding)', () => {
  it.each(['/v1/emulator/messages', '/', '/v1/emulator/events', '/v1/emulator/health'])('refuses a foreign Host on %s with a clear 4xx', async (path) => {
    emu = await createEmulator({ port: 0, rate: 0 });
    const answer = await getWithHost(emu.url, path, `attacker.example:${emu.port}`);
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('attacker.example');
    expect(answer.text).toMatch(/loopback/);
  });

  it.each(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST', '127.0.0.2'])('answers the loopback Host %s', async (name) => {
    emu = await createEmulator({ port: 0, rate: 0 });
    expect((await getWithHost(emu.url, '/v1/emulator/health', `${name}:${emu.port}`)).status).toBe(200);
  });

  it('answers any Host when the user chose a non-loopback --host (they were warned)', async () => {
    emu = await createEmulator({ port: 0, rate: 0, host: '0.0.0.0' });
    expect((await getWithHost(emu.url, '/v1/emulator/health', `my-laptop.lan:${emu.port}`)).status).toBe(200);
  });
});

/** A request with chosen headers and body; fetch would add its own Origin rules, node:http sends what it is given. */
function send(url: string, method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PUSH_BODY = JSON.stringify({ type: 1, condition: { type: 0 }, notification: { title: 'from a web page' } });
const DEMO_AUTH = `Basic ${Buffer.from('demo-app:demo-secret').toString('base64')}`;

describe('Origin of a state-changing request (a web page the developer visits cannot fill the inbox)', () => {
  // [method, path, Origin header (undefined: none), expected HTTP status]; `own` is replaced by the emulator's origin.
  const cases: [string, string, string | undefined, number][] = [
    ['POST', '/v1/message/push/demo-app', 'https://attacker.example', 403],
    ['POST', '/v1/message/push/demo-app', 'null', 403],
    ['POST', '/v1/message/push/demo-app', 'http://localhost:1', 403],
    ['DELETE', '/v1/emulator/messages', 'https://attacker.example', 403],
    ['PUT', '/v1/emulator/chaos', 'https://attacker.example', 403],
    ['POST', '/v1/message/push/demo-app', undefined, 200],
    ['POST', '/v1/message/push/demo-app', 'own', 200],
    ['DELETE', '/v1/emulator/messages', undefined, 200],
    ['DELETE', '/v1/emulator/messages', 'own', 200],
    ['GET', '/v1/emulator/messages', 'https://attacker.example', 200],
  ];
  it.each(cases)('%s %s with Origin %s → %i', async (method, path, origin, status) => {
    const lines: string[] = [];
    emu = await createEmulator({ port: 0, rate: 0, log: (line) => lines.push(line) });
    const headers: Record<string, string> = { authorization: DEMO_AUTH, 'content-type': 'text/plain' };
    if (origin !== undefined) headers.origin = origin === 'own' ? emu.url : origin;
    const body = path.startsWith('/v1/message/push') ? PUSH_BODY : path.endsWith('chaos') ? '{"spec":"500=1%"}' : '';
    const answer = await send(emu.url, method, path, headers, body);
    expect(answer.status).toBe(status);
    if (status !== 403) return;
    expect(JSON.parse(answer.text).message).toContain(`Origin "${origin}"`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`${method} ${path} -> 403 Origin`));
    expect(emu.messages()).toHaveLength(0);
  });
});
