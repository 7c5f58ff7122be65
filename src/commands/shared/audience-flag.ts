// `pushctl init --audience name=id,id`: an audience of client IDs, as the config's "audiences" holds it.
import { usageError } from '../../errors.js';
import { setOwn } from '../../message/own-key.js';
import type { Audience } from '../../settings/schema.js';

/** The audiences the flags give, by name; undefined when none was given. */
export function parseAudienceFlags(flags: readonly string[] | undefined): Record<string, Audience> | undefined {
  if (flags === undefined || flags.length === 0) return undefined;
  const audiences: Record<string, Audience> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const name = eq < 0 ? '' : flag.slice(0, eq).trim();
    const ids = eq < 0 ? [] : flag.slice(eq + 1).split(',').map((id) => id.trim()).filter((id) => id !== '');
    if (name === '' || ids.length === 0) {
      throw usageError(`--audience ${JSON.stringify(flag)} is not name=id,id`, 'e.g. --audience my-phones=3f9a0c12,77c1e0b4 (client IDs, comma-separated)');
    }
    // The second list would silently replace the first: which one was meant, only the user knows.
    const earlier = Object.hasOwn(audiences, name) ? audiences[name] : undefined;
    if (earlier !== undefined && typeof earlier === 'object' && 'client_ids' in earlier) {
      throw usageError(`--audience ${name} is given twice`, `give its client IDs once: --audience ${name}=${[...new Set([...earlier.client_ids, ...ids])].join(',')}`);
    }
    setOwn(audiences, name, { client_ids: [...new Set(ids)] });
  }
  return audiences;
}
