// People as admins manage them: there is always an admin. Demoting or removing admins at
// the same moment leaves one, and a start with ADMIN_EMAIL makes that person admin again
// when nobody is.
import { beforeEach, describe, expect, it } from 'vitest';
import { PATCH as patchUserRoute, DELETE as deleteUserRoute } from '@/app/api/users/[id]/route';
import { getAuth, resetAuth } from '@/lib/features/access/auth';
import { testDatabases } from '@/test/support/databases';
import { makeUser, ORIGIN, signIn, type TestUser, truncateAccess, accessSuite } from '@/test/support/access';

describe.each(testDatabases())('admins on $name', ({ open }) => {
  const suite = accessSuite(open);

  const admins = () => suite.db.prisma.user.count({ where: { role: 'admin' } });
  const demote = (cookie: string, id: string) =>
    patchUserRoute(
      new Request(`${ORIGIN}/api/users/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ role: 'viewer' }),
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      }),
      { params: Promise.resolve({ id }) },
    );
  const remove = (cookie: string, id: string) =>
    deleteUserRoute(new Request(`${ORIGIN}/api/users/${id}`, { method: 'DELETE', headers: { cookie, origin: ORIGIN } }), { params: Promise.resolve({ id }) });

  // The loser is refused by the last-admin rule (409), or, when the winner's change came
  // before its own request was authenticated, as no longer an admin (403) or no longer anyone (401).
  function expectOneWins(answers: Response[]): void {
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 403, 409]).toContain(statuses[1]);
  }

  async function twoAdmins(): Promise<[TestUser & { cookie: string }, TestUser & { cookie: string }]> {
    const a = await makeUser('admin');
    const b = await makeUser('admin');
    return [
      { ...a, cookie: await signIn(a.email, a.password) },
      { ...b, cookie: await signIn(b.email, b.password) },
    ];
  }

  it('two admins demoting each other at once: one change wins, the other is 409, one admin is left', async () => {
    for (let round = 0; round < 5; round++) {
      await truncateAccess(suite.db);
      const [a, b] = await twoAdmins();
      const answers = await Promise.all([demote(a.cookie, b.id), demote(b.cookie, a.id)]);
      expectOneWins(answers);
      expect(await admins()).toBe(1);
    }
  });

  it('two admins demoting themselves at once leave one admin', async () => {
    const [a, b] = await twoAdmins();
    const answers = await Promise.all([demote(a.cookie, a.id), demote(b.cookie, b.id)]);
    expectOneWins(answers);
    expect(await admins()).toBe(1);
  });

  it('removing one admin while the other is demoted leaves one admin', async () => {
    const [a, b] = await twoAdmins();
    const c = await makeUser('viewer');
    const answers = await Promise.all([remove(a.cookie, b.id), demote(b.cookie, a.id)]);
    expectOneWins(answers);
    expect(await admins()).toBe(1);
    expect(await suite.db.prisma.user.count({ where: { id: c.id } })).toBe(1);
  });

  it('the last admin is never demoted or removed, and the answer says why', async () => {
    const [a, b] = await twoAdmins();
    expect((await demote(a.cookie, b.id)).status).toBe(200);
    const refused = await demote(a.cookie, a.id);
    expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 409, body: { error: 'The last admin cannot be made a viewer' } });
    expect(await admins()).toBe(1);
  });

  describe('ADMIN_EMAIL', () => {
    beforeEach(() => {
      process.env.ADMIN_EMAIL = 'boss@example.test';
      process.env.ADMIN_PASSWORD = 'first password 1';
    });

    it('is made admin again at start when no admin is left', async () => {
      await getAuth();
      await suite.db.prisma.user.updateMany({ data: { role: 'viewer' } });
      expect(await admins()).toBe(0);

      resetAuth(); // a new process start
      await getAuth();

      expect(await suite.db.prisma.user.findUniqueOrThrow({ where: { email: 'boss@example.test' }, select: { role: true } })).toEqual({ role: 'admin' });
      expect(await admins()).toBe(1);
    });

    it('stays a viewer when another admin demoted it: admins decide while there are any', async () => {
      await getAuth();
      const other = await makeUser('admin');
      await suite.db.prisma.user.update({ where: { email: 'boss@example.test' }, data: { role: 'viewer' } });

      resetAuth();
      await getAuth();

      expect(await suite.db.prisma.user.findUniqueOrThrow({ where: { email: 'boss@example.test' }, select: { role: true } })).toEqual({ role: 'viewer' });
      expect(await suite.db.prisma.user.findUniqueOrThrow({ where: { id: other.id }, select: { role: true } })).toEqual({ role: 'admin' });
    });
  });
});
