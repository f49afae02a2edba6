import { loadConfig } from './config/loadConfig.ts';
import type { Env } from './config/envReader.ts';
import { isConfigError, type StrataConfig } from './config/strataConfig.ts';

/** The configuration for a CLI command, or null once every bad variable has been written to stderr (exit code 1). */
export function cliConfig(io: { readonly env: Env; readonly stderr: (text: string) => void }): StrataConfig | null {
  try {
    return loadConfig(io.env);
  } catch (err) {
    if (!isConfigError(err)) throw err;
    io.stderr(`${err.message}\n`);
    return null;
  }
}
