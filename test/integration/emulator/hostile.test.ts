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
