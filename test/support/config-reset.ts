// Vitest setup: configuration is parsed once per process (lib/core/config.ts), and tests
// change the environment between cases. Every write to process.env (a variable set or
// deleted, or process.env replaced) forgets the parsed configuration, so the next read
// sees it, as a server started with that environment would. vi.stubEnv writes to the
// environment object Vitest held before this file ran, so it is followed too.
import { vi } from 'vitest';
import { resetConfig } from '@/lib/core/config';

type Env = NodeJS.ProcessEnv;

function watched(env: Env): Env {
  return new Proxy(env, {
    set(target, key, value) {
      Reflect.set(target, key, value);
      resetConfig();
      return true;
    },
    deleteProperty(target, key) {
      Reflect.deleteProperty(target, key);
      resetConfig();
      return true;
    },
  });
}

let current = watched(process.env);
Object.defineProperty(process, 'env', {
  configurable: true,
  enumerable: true,
  get: () => current,
  set: (env: Env) => {
    current = watched(env);
    resetConfig();
  },
});

const { stubEnv, unstubAllEnvs } = vi;
vi.stubEnv = ((name: string, value: string | boolean | undefined) => {
  const result = (stubEnv as (name: string, value: string | boolean | undefined) => typeof vi)(name, value);
  resetConfig();
  return result;
}) as typeof stubEnv;
vi.unstubAllEnvs = () => {
  const result = unstubAllEnvs();
  resetConfig();
  return result;
};
