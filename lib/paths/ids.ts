// Stable ids of paths and forks: the MD5 (hex) of their canonical key (steps.ts), the same
// digest PostgreSQL's md5() gives for the key it builds in lib/paths/sql.ts.
import { createHash } from 'node:crypto';
import { forkKey, pathKey, type Step } from './steps';

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

export const pathId = (steps: readonly Step[]): string => md5(pathKey(steps));

export const forkId = (prefix: readonly Step[]): string => md5(forkKey(prefix));

/** Path and fork ids are 32 lower-case hex digits. */
export const PATH_ID_PATTERN = /^[0-9a-f]{32}$/;
