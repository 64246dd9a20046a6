/**
 * The authorization server's sign-in and consent pages: plain server-rendered HTML (no script), every value escaped.
 * The pages post back to `POST /oauth/authorize` with the login session's secret id in a hidden field.
 */
import type { Scope } from '#api/types';

/** HTML-escapes text for element content and quoted attributes. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What each scope lets the application do, in the consent page's words (spec "Scopes"). */
export const SCOPE_WORDS: Record<Scope, string> = {
  read: 'Read your deals, key dates, tasks, documents, contacts and messages',
  draft: 'Make low-risk changes (complete tasks, save notes and status summaries)',
  actions: 'Take actions for you (send email and texts, share documents, delete, manage webhooks)',
};

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2933}' +
  'h1{font-size:1.4rem}label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=text]{width:100%;padding:.5rem;font-size:1rem}' +
  'button{margin-top:1rem;padding:.5rem 1.25rem;font-size:1rem}.muted{color:#52606d}.error{color:#b42318}li{margin:.3rem 0}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

const hidden = (session: string, step: string) => `<input type="hidden" name="session" value="${esc(session)}"><input type="hidden" name="step" value="${step}">`;
const errorLine = (error?: string) => (error ? `<p class="error" role="alert">${esc(error)}</p>` : '');

/** Step 1: the email address to prove. */
export function emailPage(session: string, clientName: string, error?: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to continue to ${esc(clientName)}</h1>${errorLine(error)}<form method="post" action="/oauth/authorize">${hidden(session, 'email')}` +
      `<label for="email">Your work email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="320">` +
      `<button type="submit">Email me a sign-in code</button></form>`,
  );
}

/** Step 2: the one-time code mailed to `email`. */
export function codePage(session: string, email: string, error?: string): string {
  return page(
    'Enter your code',
    `<h1>Check your email</h1><p class="muted">If ${esc(email)} belongs to a member of a workspace, a 6-digit code is on its way. It is valid 10 minutes.</p>` +
      `${errorLine(error)}<form method="post" action="/oauth/authorize">${hidden(session, 'code')}` +
      `<label for="code">Sign-in code</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required maxlength="6">` +
      `<button type="submit">Continue</button></form>`,
  );
}

/** Step 3: the consent screen — who asks, where the answer goes, what it may do, and for which workspace. */
export function consentPage(session: string, input: { clientName: string; redirectHost: string; scopes: Scope[]; orgs: { orgId: string; name: string }[]; email: string }): string {
  const orgChoice =
    input.orgs.length === 1
      ? `<p>Workspace: <strong>${esc(input.orgs[0].name)}</strong></p><input type="hidden" name="org" value="${esc(input.orgs[0].orgId)}">`
      : `<fieldset><legend>Workspace</legend>${input.orgs
          .map((o, i) => `<label><input type="radio" name="org" value="${esc(o.orgId)}"${i === 0 ? ' checked' : ''}> ${esc(o.name)}</label>`)
          .join('')}</fieldset>`;
  return page(
    'Authorize application',
    `<h1>Authorize ${esc(input.clientName)}</h1><p class="muted">Signed in as ${esc(input.email)}.</p>` +
      `<p><strong>${esc(input.clientName)}</strong> will be able to:</p><ul id="scopes">${input.scopes.map((s) => `<li data-scope="${s}">${esc(SCOPE_WORDS[s])}</li>`).join('')}</ul>` +
      `<p>After you decide you will be sent to <strong id="redirect-host">${esc(input.redirectHost)}</strong>.</p>` +
      `<form method="post" action="/oauth/authorize">${hidden(session, 'consent')}${orgChoice}` +
      `<button type="submit" name="decision" value="approve">Approve</button> <button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

/** A request that cannot be sent back to the client (unknown client or redirect URI, expired session). */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${esc(title)}</h1><p>${esc(message)}</p>`);
}
