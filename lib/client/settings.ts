// React Query options and requests for the admin settings (/settings/users and
// /settings/api-keys): one factory per entity, and the writes the pages make. Safe for
// client components: only types come from lib/access (scopes.ts is plain data).
import { queryOptions } from '@tanstack/react-query';
import type { ApiKeyRecord } from '@/lib/features/access';
import type { KeyScope, Role } from '@/lib/core/access/scopes';
import type { UserRecord } from '@/lib/features/access';
import { fetchJson, sendJson } from './traces';

export type { ApiKeyRecord, UserRecord };

export interface NewUserInput {
  email: string;
  name: string;
  password: string;
  role: Role;
}

export interface NewApiKeyInput {
  name: string;
  scopes: KeyScope[];
}

/** The answer to creating a key: the only time the key itself is seen. */
export type CreatedApiKey = ApiKeyRecord & { key: string };

const send = sendJson;

export const settingsQueries = {
  all: () => ['settings'] as const,
  users: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), 'users'] as const,
      queryFn: async ({ signal }) => (await fetchJson<{ users: UserRecord[] }>('/api/users', { signal })).users,
    }),
  apiKeys: () =>
    queryOptions({
      queryKey: [...settingsQueries.all(), 'api-keys'] as const,
      queryFn: async ({ signal }) => (await fetchJson<{ apiKeys: ApiKeyRecord[] }>('/api/api-keys', { signal })).apiKeys,
    }),
};

export const settingsRequests = {
  createUser: (input: NewUserInput) => send<{ id: string }>('POST', '/api/users', input),
  setRole: (id: string, role: Role) => send<{ success: true }>('PATCH', `/api/users/${encodeURIComponent(id)}`, { role }),
  removeUser: (id: string) => send<{ success: true }>('DELETE', `/api/users/${encodeURIComponent(id)}`),
  createApiKey: (input: NewApiKeyInput) => send<CreatedApiKey>('POST', '/api/api-keys', input),
  revokeApiKey: (id: string) => send<{ success: true }>('DELETE', `/api/api-keys/${encodeURIComponent(id)}`),
};
