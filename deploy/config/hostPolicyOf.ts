import type { HostPolicy } from '../../query-service/index.ts';
import type { StrataConfig } from './strataConfig.ts';

/** The host validation of auth.md §6.4 from ALLOWED_HOSTS and PUBLIC_URL. */
export function hostPolicyOf(config: Pick<StrataConfig, 'allowedHosts' | 'publicUrl'>): HostPolicy {
  return {
    anyHost: config.allowedHosts === '*',
    allowedHosts: config.allowedHosts === '*' ? [] : config.allowedHosts,
    publicHost: config.publicUrl === null ? null : new URL(config.publicUrl).hostname.toLowerCase(),
  };
}
