// The flags of `pushctl serve` and its help; the defaults and ranges are options.ts's.
import type { CommandDefinition } from '../shared/command.js';
import { collect, examples } from '../shared/flags.js';
import { SERVE_DEFAULTS as D, shown } from './defaults.js';

export const serveCommand: CommandDefinition = {
  name: 'serve',
  description: `run the local emulator of the service (default http://${D.host}:${D.port}, app demo-app / demo-secret)`,
  define: (cmd) =>
    cmd
      .option('--host <host>', `address to listen on ${shown(D.host)}`)
      .option('--port <port>', `port (0 = any free port) ${shown(D.port)}`)
      .option('--app <id:secret>', 'an app the emulator accepts (repeatable)', collect)
      .option('--apps <path>', 'JSON file of apps: {"apps":[{"id","secret","disabled"}]}')
      .option('--rate <n>', `requests per second per app (0 = no limit) ${shown(D.rate)}`)
      .option('--max-client-ids <n>', `client IDs per request (0 = no limit) ${shown(D.maxClientIds)}`)
      .option('--record <path>', 'append accepted messages to a JSON Lines file')
      .option('--tls-cert <pem>', 'serve https with this certificate (chain) file; needs --tls-key')
      .option('--tls-key <pem>', 'the private key file for --tls-cert')
      .option('--devices <file>', 'simulated devices: a JSON array, or CSV with a header of client_id and any of country,language,brand,model,os_version,app_version')
      .option('--fleet <n>', 'simulated devices: a synthetic, seeded fleet of n devices')
      .option('--chaos <spec>', 'answer a share of pushes with faults: 22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms')
      .option('--chaos-seed <n>', `seed of the chaos sequence (the same seed repeats a run) ${shown(D.chaosSeed)}`)
      .option('--keep-mb <n>', `memory for kept messages and the request log, in MiB ${shown(D.keepMb)}`)
      .addHelpText(
        'after',
        examples([
          'pushctl serve',
          'pushctl serve --port 0 --app my-app:my-secret --rate 0',
          'pushctl serve --record messages.jsonl',
          'pushctl serve --chaos 22001=5%,503=3%,500=2%,reset=2%,latency=50-400ms --chaos-seed 7',
          'pushctl serve --fleet 10000                  # then open http://127.0.0.1:8787/',
        ]),
      ),
  load: async () => (await import('./run.js')).command,
};
