// `prisma generate` offline: the CLI insists on locating a schema engine binary
// before it starts, although generate never runs it. Point it at any existing file
// (see ../shared/ENVIRONMENT.md) unless the caller already set a real one.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ||= process.execPath;
const result = spawnSync('npx', ['prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
