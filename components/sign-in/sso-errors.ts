// What a failed single sign-on means, in words. The provider or Better Auth sends the
// browser back to /sign-in?error=<code>; only known codes get a sentence, and the
// provider's free-text description is never shown (anyone can craft such a link).

const SSO_ERRORS: Record<string, string> = {
  // Crossroads' own refusal (OIDC_ALLOWED_DOMAINS / OIDC_ALLOWED_EMAILS).
  not_allowed:
    'Your single sign-on account is not allowed to join this Crossroads. Ask an admin to add your email, or sign in with another account.',
  // OAuth 2.0 / OpenID Connect codes from the provider.
  access_denied: 'Single sign-on was cancelled or refused at the provider.',
  login_required: 'The provider asked you to sign in again. Try once more.',
  consent_required: 'The provider needs your consent before Crossroads can sign you in. Try once more.',
  interaction_required: 'The provider needs you to finish signing in there. Try once more.',
  server_error: 'The single sign-on provider had an error. Try again in a moment.',
  temporarily_unavailable: 'The single sign-on provider is unavailable right now. Try again in a moment.',
  // Better Auth's callback codes.
  state_not_found: 'This sign-in expired or was started in another browser tab. Start again.',
  state_mismatch: 'This sign-in expired or was started in another browser tab. Start again.',
  invalid_callback_request: 'The answer from the single sign-on provider could not be read. Start again.',
  no_code: 'The single sign-on provider did not complete the sign-in. Start again.',
  invalid_code: 'The single sign-on provider did not confirm the sign-in. Start again.',
  unable_to_get_user_info: 'The single sign-on provider did not say who you are. Ask an admin to check the SSO settings.',
  email_not_found: 'The single sign-on provider did not share your email address, which Crossroads needs.',
  email_not_verified: 'Your email address is not verified at the single sign-on provider.',
  email_does_not_match: 'The single sign-on account has a different email address.',
  unable_to_link_account: 'Your single sign-on account could not be linked to your Crossroads account. Ask an admin.',
  account_not_linked: 'Your single sign-on account could not be linked to your Crossroads account. Ask an admin.',
  account_already_linked_to_different_user: 'This single sign-on account already belongs to another Crossroads user.',
  signup_disabled: 'Your single sign-on account has no Crossroads account yet. Ask an admin to add you.',
  issuer_mismatch: 'The answer did not come from the configured single sign-on provider. Ask an admin to check OIDC_ISSUER.',
  issuer_missing: 'The answer did not name its single sign-on provider. Ask an admin to check OIDC_ISSUER.',
  nonce_binding_missing: 'This sign-in could not be verified. Start again.',
  oauth_provider_not_found: 'Single sign-on is not available on this server right now. Ask an admin to check the SSO settings.',
  no_callback_url: 'This sign-in lost where to return to. Start again.',
};

/** A readable sentence for an ?error= code, or null when there is none. */
export function ssoErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  const key = code.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const known = SSO_ERRORS[key];
  if (known) return known;
  const shown = /^[\w.-]{1,64}$/.test(code) ? ` (code ${code})` : '';
  return `Single sign-on did not complete${shown}. Start again, or sign in with your email and password.`;
}
