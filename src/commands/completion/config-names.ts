// The names a completion script offers on TAB (docs/behaviour.md#completion): the audiences `--to` takes and
// the profiles `--profile` takes, from the config file found from the working directory. Asked for by the
// shell on every TAB, so never an error: no file, a broken one or one pushctl does not trust lists nothing.
import type { Ctx } from '../../context.js';
import type { NameKind } from '../../output/completion.js';
import { audiencesOf } from '../../settings/audiences.js';
import { loadConfigFile } from '../../settings/load.js';
import { selectProfile } from '../../settings/resolve.js';

export async function configNames(kind: NameKind, ctx: Pick<Ctx, 'cwd' | 'env'>): Promise<string[]> {
  let names: string[];
  try {
    // A JavaScript config is not run: pressing TAB in a checkout must not run code the checkout holds.
    const file = await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, allowJavaScript: false });
    if (file === null) return [];
    // Several profiles (PUSHCTL_PROFILE=a,b) send to the top level's audiences.
    const profile = ctx.env.PUSHCTL_PROFILE?.includes(',') ? undefined : selectProfile({ flags: {}, env: ctx.env, file }).name;
    names = Object.keys(kind === 'profiles' ? (file.config.profiles ?? {}) : audiencesOf(file.config, profile));
  } catch {
    return [];
  }
  // One name a line: a name with a line break or another control character cannot be offered whole.
  // eslint-disable-next-line no-control-regex
  return names.filter((name) => name !== '' && !/[\u0000-\u001f\u007f]/.test(name));
}
