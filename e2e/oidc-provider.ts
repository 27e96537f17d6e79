// A real OpenID Connect provider for the SSO tests: oidc-provider 9 on loopback, with one
// confidential client (the e2e server), a few people, and a login form of its own (its
// built-in dev interactions pull a stylesheet from the internet). Nothing leaves the
// machine: signing keys are made at start, and every artifact has a pinned lifetime.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { type Account, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export interface IdpPerson {
  /** The provider's subject, also the account id. */
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
  password: string;
}

export interface IdpOptions {
  port: number;
  clientId: string;
  clientSecret: string;
  /** Where the client's authorization responses may go. */
  redirectUris: string[];
  people: IdpPerson[];
}

export interface RunningIdp {
  issuer: string;
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 24rem; margin: 4rem auto">${body}</body></html>`;
}

function loginPage(uid: string, clientId: string, error?: string, email = ''): string {
  return page(
    'Loopback IdP: sign in',
    `<h1>Loopback IdP</h1>
<p>Sign in to continue to <strong>${esc(clientId)}</strong>.</p>
${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/interaction/${esc(uid)}/login">
  <p><label>Email address <input name="email" type="email" autocomplete="username" required value="${esc(email)}"></label></p>
  <p><label>Secret <input name="password" type="password" autocomplete="current-password" required></label></p>
  <p><button type="submit">Continue</button> <a href="/interaction/${esc(uid)}/abort">Cancel</a></p>
</form>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

function configuration(options: IdpOptions): Configuration {
  const byId = new Map(options.people.map((p) => [p.sub, p]));
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  return {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // What Better Auth sends by default (client_id and client_secret in the body).
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    // oidc-provider requires PKCE only of public clients by default; Crossroads must send it.
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    async findAccount(_ctx: unknown, id: string): Promise<Account | undefined> {
      const person = byId.get(id);
      if (!person) return undefined;
      return {
        accountId: person.sub,
        claims: () => ({ sub: person.sub, email: person.email, email_verified: person.emailVerified, name: person.name }),
      };
    },
    jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'RS256', kid: 'e2e' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    ttl: { AccessToken: 600, AuthorizationCode: 120, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    clientBasedCORS: () => false,
    // The built-in error page also imports a remote stylesheet.
    renderError(ctx: KoaContextWithOIDC, out: Record<string, string>) {
      ctx.type = 'html';
      ctx.body = page('Loopback IdP: error', `<h1>Sign-in error</h1><p>${esc(out.error ?? '')}: ${esc(out.error_description ?? '')}</p>`);
    },
  };
}

/** Answers the interaction pages: a login form, then consent granted without asking (a first-party client). */
async function interaction(provider: Provider, options: IdpOptions, req: IncomingMessage, res: ServerResponse, uid: string, action: string) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) return send(res, 400, page('Loopback IdP: error', '<p>Unknown interaction</p>'));

  if (action === '/abort') {
    return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person cancelled sign-in' }, { mergeWithLastSubmission: false });
  }
  if (details.prompt.name === 'login') {
    if (action !== '/login' || req.method !== 'POST') return send(res, 200, loginPage(uid, options.clientId));
    const form = await readForm(req);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const person = options.people.find((p) => p.email.toLowerCase() === email);
    if (!person || person.password !== form.get('password')) {
      return send(res, 200, loginPage(uid, options.clientId, 'Unknown email address or wrong secret', email));
    }
    return provider.interactionFinished(req, res, { login: { accountId: person.sub } }, { mergeWithLastSubmission: false });
  }
  if (details.prompt.name === 'consent') {
    const accountId = details.session?.accountId;
    if (!accountId) return send(res, 400, page('Loopback IdP: error', '<p>No session</p>'));
    const grant = (details.grantId && (await provider.Grant.find(details.grantId))) || new provider.Grant({ accountId, clientId: options.clientId });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }
  send(res, 501, page('Loopback IdP: error', `<p>Prompt ${esc(details.prompt.name)} is not handled</p>`));
}

/** Starts the provider on 127.0.0.1:port; close() stops it and drops its connections. */
export async function startOidcProvider(options: IdpOptions): Promise<RunningIdp> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const provider = new Provider(issuer, configuration(options));
  for (const event of ['server_error', 'authorization.error', 'grant.error', 'userinfo.error']) {
    provider.on(event, (_ctx, err) => console.error(`[loopback idp] ${event}:`, (err as Error)?.message ?? err));
  }
  const handle = provider.callback();
  const server = http.createServer((req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) return handle(req, res);
    interaction(provider, options, req, res, match[1], match[2] ?? '').catch((err: Error) => {
      if (!res.headersSent) send(res, 400, page('Loopback IdP: error', `<p>${esc(err.message)}</p>`));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
