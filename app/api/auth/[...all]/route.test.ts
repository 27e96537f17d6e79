// Better Auth's endpoints are public by nature (sign-in is how a caller becomes known), so
// their bodies are read before anyone is authenticated: bounded, and refused once over.
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { expectError, makeUser, ORIGIN, accessSuite } from '@/test/support/access';
import { testDatabases } from '@/test/support/databases';

const KiB = 1024;
const params = { params: Promise.resolve({ all: ['sign-in', 'email'] }) };

describe.each(testDatabases())('POST /api/auth/* bodies on $name', ({ open }) => {
  accessSuite(open);
  beforeEach(() => {
    process.env.API_KEYS = 'env-key-1';
  });

  const signInBody = (email: string, password: string, padding: number) => JSON.stringify({ email, password, pad: 'x'.repeat(padding) });
  const headers = { 'content-type': 'application/json', origin: ORIGIN };

  it('refuses a declared body over 64 KiB with 413, unread', async () => {
    const body = signInBody('someone@example.test', 'whatever-1', 64 * KiB);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 1) controller.close();
        else controller.enqueue(new TextEncoder().encode(body));
      },
    });
    const req = new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectError(await authPost(req, params), 413, 'Request body too large');
  });

  it('refuses a chunked body once it passes 64 KiB', async () => {
    const piece = new TextEncoder().encode('x'.repeat(16 * KiB));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += piece.byteLength;
        // Far more than any sign-in: the server must stop reading long before the end.
        if (sent > 64 * 1024 * KiB) controller.close();
        else controller.enqueue(piece);
      },
    });
    const req = new Request(`${ORIGIN}/api/auth/sign-in/email`, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
    await expectError(await authPost(req, params), 413, 'Request body too large');
    expect(sent).toBeLessThan(1024 * KiB);
  });

  it('still signs in with an ordinary body', async () => {
    const person = await makeUser('viewer');
    const req = new Request(`${ORIGIN}/api/auth/sign-in/email`, { method: 'POST', headers, body: signInBody(person.email, person.password, 100) });
    expect((await authPost(req, params)).status).toBe(200);
  });
});
