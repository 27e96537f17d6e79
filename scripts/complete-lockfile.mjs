// The npm registry mirror this project is developed on lacks the other platforms'
// optional binaries (e.g. @next/swc-darwin-arm64), so `npm install` writes a lock file
// without them and `npm ci` then refuses it as out of sync. This adds the missing
// optional entries with the os/cpu/libc they are built for (read off the package name),
// exactly as a lock written on a full registry has them, so npm skips them here and a
// machine of that platform still knows what to fetch. Run after changing dependencies.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  const os = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix'].find((o) =>
    new RegExp(`-${o}\\b`).test(name),
  );
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'wasm32', 'ppc64', 's390x', 'riscv64', 'loong64'].find((c) =>
    new RegExp(`-${c}\\b`).test(name),
  );
  const entry = {};
  if (os) entry.os = [os];
  if (cpu) entry.cpu = [cpu];
  if (/-musl\b/.test(name)) entry.libc = ['musl'];
  else if (os === 'linux' && /-gnu/.test(name)) entry.libc = ['glibc'];
  return entry;
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`;
    const nested = `${base}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[nested] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform.os && !platform.cpu) continue; // not a platform binary: leave it to npm
    packages[hoisted] = { version, optional: true, ...platform };
    added += 1;
  }
}
writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} optional platform entries`);
