// Whether configuration alone makes the server protected (no database needed to tell):
// API_KEYS, ADMIN_EMAIL or OIDC_ISSUER. In core, apart from the access feature's mode.ts,
// so proxy.ts and instrumentation.ts can use it without pulling in the database or Better Auth.
import { getAccessConfig, getApiKeyEntries } from '@/lib/core/config';

export function configuredProtected(): boolean {
  const { adminEmail, oidc } = getAccessConfig();
  return getApiKeyEntries().length > 0 || adminEmail !== undefined || oidc !== undefined;
}
