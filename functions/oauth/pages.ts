/**
 * The authorization server's sign-in and consent pages: server-rendered HTML without script in the shared layout
 * (shared/http/pages/layout.ts: the one same-origin stylesheet, the organization's branding, every value escaped).
 * The pages post back to `POST /oauth/authorize` with the login session's secret id in a hidden field.
 *
 * Branding: the sign-in steps show the workspace the client named with `organization` (its id) if any, else the
 * neutral look: who is signing in is not proven yet, and naming their brokerage would tell anyone which workspace an
 * email belongs to. The consent page shows the workspace being authorized when there is one to show (the named one
 * the user belongs to, or their only one).
 *
 * CSP `form-action`: the consent form's answer is a redirect to the client's redirect URI, which Chromium checks
 * against the consent page's `form-action`, so that page names the URI's origin (or, for a native app's
 * private-use scheme, the scheme); the sign-in steps' forms never redirect and allow only this origin.
 */
import type { Scope } from '#api/types';
import type { Branding } from '#domain/branding';
import { html, type Html } from '#http/pages/layout';

/** A page before its status: what `responses.ts` `html()` renders. */
export interface OAuthPage {
  title: string;
  body: Html;
  branding?: Branding;
  formTargets?: readonly string[];
}

/** What each scope lets the application do, in the consent page's words (spec "Scopes"). */
export const SCOPE_WORDS: Record<Scope, string> = {
  read: 'Read your deals, key dates, tasks, documents, contacts and messages',
  draft: 'Make low-risk changes (complete tasks, save notes and status summaries)',
  actions: 'Take actions for you (send email and texts, share documents, delete, manage webhooks)',
};

const hidden = (session: string, step: string) => html`<input type="hidden" name="session" value="${session}"><input type="hidden" name="step" value="${step}">`;
const errorLine = (error?: string) => (error ? html`<p class="error" role="alert">${error}</p>` : '');

/** Step 1: the email address to prove. */
export function emailPage(session: string, clientName: string, error?: string, branding?: Branding): OAuthPage {
  return {
    title: 'Sign in',
    branding,
    body: html`<h1>Sign in to continue to ${clientName}</h1>${errorLine(error)}<form method="post" action="/oauth/authorize">${hidden(session, 'email')}<label for="email">Your work email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="320"><button type="submit">Email me a sign-in code</button></form>`,
  };
}

/** Step 2: the one-time code mailed to `email`. */
export function codePage(session: string, email: string, error?: string, branding?: Branding): OAuthPage {
  return {
    title: 'Enter your code',
    branding,
    body: html`<h1>Check your email</h1><p class="muted">If ${email} belongs to a member of a workspace, a 6-digit code is on its way. It is valid 10 minutes.</p>${errorLine(error)}<form method="post" action="/oauth/authorize">${hidden(session, 'code')}<label for="code">Sign-in code</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required maxlength="6"><button type="submit">Continue</button></form>`,
  };
}

/** Step 3: the consent screen — who asks, where the answer goes, what it may do, and for which workspace. */
export function consentPage(
  session: string,
  input: { clientName: string; redirectUri: string; redirectHost: string; scopes: Scope[]; orgs: { orgId: string; name: string }[]; email: string; branding?: Branding },
): OAuthPage {
  const [only] = input.orgs;
  const orgChoice =
    input.orgs.length === 1
      ? html`<p>Workspace: <strong>${only!.name}</strong></p><input type="hidden" name="org" value="${only!.orgId}">`
      : html`<fieldset><legend>Workspace</legend>${input.orgs.map((o, i) => html`<label><input type="radio" name="org" value="${o.orgId}"${i === 0 ? html` checked` : ''}> ${o.name}</label>`)}</fieldset>`;
  return {
    title: 'Authorize application',
    branding: input.branding,
    formTargets: [input.redirectUri],
    body: html`<h1>Authorize ${input.clientName}</h1><p class="muted">Signed in as ${input.email}.</p><p><strong>${input.clientName}</strong> will be able to:</p><ul id="scopes">${input.scopes.map((s) => html`<li data-scope="${s}">${SCOPE_WORDS[s]}</li>`)}</ul><p>After you decide you will be sent to <strong id="redirect-host">${input.redirectHost}</strong>.</p><form method="post" action="/oauth/authorize">${hidden(session, 'consent')}${orgChoice}<button type="submit" name="decision" value="approve">Approve</button> <button type="submit" class="secondary" name="decision" value="deny">Deny</button></form>`,
  };
}

/** A request that cannot be sent back to the client (unknown client or redirect URI, expired session). */
export function errorPage(title: string, message: string): OAuthPage {
  return { title, body: html`<h1>${title}</h1><p>${message}</p>` };
}
