// The config file of one command run, read at most once (docs/behaviour.md#settings). A send's `--to`
// audience and each of its targets' settings read the same file: read once, they come from one version of
// it, and what is wrong with it (a secret others may read) is said once, not once per target.
import type { Ctx } from '../../context.js';
import { loadConfigFile, type LoadedConfig } from '../../settings/load.js';

export class RunConfig {
  #read: Promise<LoadedConfig | null> | undefined;

  constructor(
    private readonly options: { config?: string },
    private readonly ctx: Pick<Ctx, 'cwd' | 'env' | 'stderr'> & Partial<Pick<Ctx, 'runJavaScriptConfig'>>,
  ) {}

  /** The file as read the first time it was asked for (null: none found), its warnings said then. */
  file(): Promise<LoadedConfig | null> {
    this.#read ??= this.read();
    return this.#read;
  }

  private async read(): Promise<LoadedConfig | null> {
    const { ctx } = this;
    const file = await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, explicitPath: this.options.config, allowJavaScript: ctx.runJavaScriptConfig ?? true });
    for (const warning of file?.warnings ?? []) ctx.stderr.write(`warning: ${warning}\n`);
    return file;
  }
}
