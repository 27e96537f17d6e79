// The layout check on a small tree that breaks each rule once, and on the repository,
// which must break none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types (it runs under node in `npm run lint`).
import { checkLayout } from './check.mjs';

const root = mkdtempSync(path.join(tmpdir(), 'layout-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

describe('layout check', () => {
  it('reports an outward import, a private reach, a circle, process.env outside core and SQL not built with the tag', () => {
    write('lib/core/context.ts', "import { listThings } from '@/lib/features/things';\nexport const x = listThings;\n");
    write('lib/features/things/index.ts', "export { listThings } from './list';\n");
    write('lib/features/things/list.ts', "import { other } from '@/lib/features/others';\nexport const listThings = () => other;\n");
    write('lib/features/others/index.ts', "import { listThings } from '@/lib/features/things';\nexport const other = 1;\nexport const again = listThings;\n");
    write('lib/transports/http/route.ts', "import { listThings } from '@/lib/features/things/list';\nexport const y = listThings;\n");
    write('lib/features/things/config.ts', 'export const port = process.env.PORT;\n');
    write('lib/features/things/read.ts', "export const read = (db: any, id: string) => db.query('SELECT * FROM t WHERE id = $1', [id]);\n");
    write('lib/features/things/raw.ts', "import { Prisma } from '@/lib/generated/prisma/client';\nexport const q = (db: any) => db.$queryRaw(Prisma.sql`SELECT 1`);\n");
    write('lib/features/things/list.test.ts', "import { listThings } from './list';\nimport { y } from '@/lib/transports/http/route';\nvoid listThings; void y;\n");
    const problems: string[] = checkLayout(root, ['lib']);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^lib\/core\/context\.ts: imports @\/lib\/features\/things \(core may not depend on features/),
        expect.stringMatching(/^lib\/transports\/http\/route\.ts: imports @\/lib\/features\/things\/list, private to lib\/features\/things/),
        expect.stringMatching(/^import circle: .*lib\/features\/others\/index\.ts.*lib\/features\/things\/list\.ts/),
        'lib/features/things/config.ts: reads process.env (only lib/core reads configuration)',
        expect.stringMatching(/^lib\/features\/things\/read\.ts: SQL as text and parameters/),
        expect.stringMatching(/^lib\/features\/things\/raw\.ts: SQL through Prisma/),
      ]),
    );
    // A test beside its module may reach into it (and into anything else).
    expect(problems.filter((p) => p.startsWith('lib/features/things/list.test.ts'))).toEqual([]);
  });

  it('finds nothing wrong in this repository', () => {
    expect(checkLayout(path.resolve(import.meta.dirname, '../..'))).toEqual([]);
  });
});
