/**
 * Issue 25's page rules without I/O: accent and logo validation (shared/domain/branding.ts), the one stylesheet and
 * its accent custom properties (shared/http/pages/stylesheet.ts), each page's CSP against where its forms redirect
 * (shared/http/pages/layout.ts), the branded OAuth pages, and the client portal's agent contact and past key dates
 * (functions/public-links/pages/portal-page.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkLogoUrl, contrastRatio, DEFAULT_ACCENT, inkOn, normalizeAccent, resolveBranding, type Branding } from '#domain/branding';
import { stylesheet, stylesheetHref, stylesheetResponse } from '#http/pages/stylesheet';
import { formTargetSource, html, pageCsp, renderPage } from '#http/pages/layout';
import { agentOf, portalDates, renderPortal, type PortalView } from '#functions/public-links/pages/portal-page';
import { consentPage, emailPage } from '#functions/oauth/pages';
import { html as oauthHtml } from '#functions/oauth/responses';
import type { KeyDate } from '#db/key-date-items';
import type { TransactionContact } from '#db/contacts';

const brand: Branding = { displayName: 'Hill Country <Realty>', logoUrl: 'https://cdn.hillcountry.example/brand/logo.png?v=2', accentColor: '#0b6e4f' };

describe('accent colour and logo URL', () => {
  it('accepts #rgb and #rrggbb only, normalized to lower-case #rrggbb', () => {
    expect(normalizeAccent('#0B6E4F')).toBe('#0b6e4f');
    expect(normalizeAccent('#AbC')).toBe('#aabbcc');
    for (const bad of ['red', '0b6e4f', '#0b6e4', '#0b6e4f80', 'rgb(1,2,3)', '#fff;}body{display:none', '#fff\n', '#ggg', '']) expect(normalizeAccent(bad), bad).toBeUndefined();
  });

  it('picks the readable text colour on the accent (WCAG contrast)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(inkOn('#0b6e4f')).toBe('#ffffff');
    expect(inkOn('#ffd700')).toBe('#111827');
    expect(contrastRatio(inkOn('#1f5fbf'), '#1f5fbf')).toBeGreaterThanOrEqual(4.5);
  });

  it('a logo is an absolute https URL without credentials', () => {
    expect(checkLogoUrl('https://cdn.example/logo.png')).toEqual({ url: 'https://cdn.example/logo.png' });
    expect(checkLogoUrl('http://cdn.example/logo.png')).toEqual({ error: 'must be an https URL' });
    expect(checkLogoUrl('data:image/png;base64,AAAA')).toEqual({ error: 'must be an https URL' });
    expect(checkLogoUrl('https://user:pw@cdn.example/l.png')).toEqual({ error: 'must not carry a user name or password' });
    expect(checkLogoUrl('/logo.png')).toEqual({ error: 'must be an absolute https URL' });
  });

  it('stored values are re-checked when shown; unset ones fall back to the workspace name and defaults', () => {
    expect(resolveBranding({ name: 'Workspace', displayName: '  ', logoUrl: 'javascript:alert(1)', accentColor: 'red;}' })).toEqual({ displayName: 'Workspace', logoUrl: null, accentColor: DEFAULT_ACCENT });
    expect(resolveBranding({ name: 'W', displayName: 'Shown', logoUrl: 'https://a.example/l.png', accentColor: '#ABCDEF' })).toEqual({ displayName: 'Shown', logoUrl: 'https://a.example/l.png', accentColor: '#abcdef' });
  });
});

describe('the one stylesheet', () => {
  it('carries the accent as custom properties; a bad accent in the query gets the default sheet', () => {
    expect(stylesheet('#0b6e4f')).toMatch(/^:root\{--accent:#0b6e4f;--accent-ink:#ffffff;--accent-text:#0b6e4f\}/);
    // Too light to read as text on white: links use the body colour instead.
    expect(stylesheet('#ffd700')).toContain('--accent-text:#1d2330');
    expect(stylesheet('#ffd700')).toContain('background:var(--accent);color:var(--accent-ink)');
    const injected = stylesheetResponse('accent=fff%7Dbody%7Bdisplay:none');
    expect(injected.body).toBe(stylesheet(DEFAULT_ACCENT));
    expect(injected.body).not.toContain('display:none');
    expect(stylesheetResponse('accent=0B6E4F')).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/css; charset=utf-8', 'x-content-type-options': 'nosniff' } });
    expect(stylesheetHref('#0b6e4f')).toMatch(/^\/assets\/pages\.css\?v=[0-9a-f]{12}&accent=0b6e4f$/);
  });
});

describe('CSP against where each page goes', () => {
  it('no inline style or script; images only from the logo origin; forms to this origin and the named targets', () => {
    expect(pageCsp()).toBe("default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    expect(pageCsp({ logoUrl: brand.logoUrl, formTargets: ['http://127.0.0.1:4569/docs-bucket/org/x.pdf?X-Amz-Signature=abc', 'https://b.s3.us-east-1.amazonaws.com/k'] })).toBe(
      "default-src 'none'; style-src 'self'; img-src https://cdn.hillcountry.example; form-action 'self' http://127.0.0.1:4569 https://b.s3.us-east-1.amazonaws.com; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it('a form target becomes one source: an origin, or a native app scheme; nothing that could add a directive', () => {
    expect(formTargetSource('com.example.app:/oauth/callback')).toBe('com.example.app:');
    expect(formTargetSource('https://app.example:8443/cb?x=1')).toBe('https://app.example:8443');
    expect(formTargetSource('not a url')).toBeUndefined();
    expect(formTargetSource("https://a.example/cb;script-src 'unsafe-inline'")).toBe('https://a.example');
  });

  it('a branded page links the stylesheet for its accent and shows the escaped name and logo', () => {
    const res = renderPage(html`<h1>x</h1>`, { title: 't', branding: brand });
    expect(res.body).toContain(`<link rel="stylesheet" href="${stylesheetHref('#0b6e4f').replace(/&/g, '&amp;')}">`);
    expect(res.body).toContain('<span>Hill Country &lt;Realty&gt;</span>');
    expect(res.body).toContain('<img src="https://cdn.hillcountry.example/brand/logo.png?v=2" alt="" height="40">');
    expect(res.body).not.toMatch(/<style|style=|<script/);
    expect(res.headers!['content-security-policy']).toContain('img-src https://cdn.hillcountry.example;');
  });
});

describe('OAuth pages', () => {
  it('the consent form may redirect to the client: its CSP names the redirect URI origin; sign-in forms only this origin', () => {
    const consent = oauthHtml(200, consentPage('s1', { clientName: 'Closing Desk', redirectUri: 'http://127.0.0.1:8977/oauth/callback', redirectHost: '127.0.0.1:8977', scopes: ['read'], orgs: [{ orgId: 'o1', name: 'Hill Country Realty' }], email: 'dana@example.test', branding: brand }));
    expect(consent.headers!['content-security-policy']).toContain("form-action 'self' http://127.0.0.1:8977;");
    expect(consent.body).toContain('Hill Country &lt;Realty&gt;');
    const native = oauthHtml(200, consentPage('s1', { clientName: 'App', redirectUri: 'com.example.app:/cb', redirectHost: 'com.example.app:/cb', scopes: ['read'], orgs: [{ orgId: 'o1', name: 'W' }], email: 'e@x.test' }));
    expect(native.headers!['content-security-policy']).toContain("form-action 'self' com.example.app:;");
    const signIn = oauthHtml(200, emailPage('s1', 'Closing <Desk>'));
    expect(signIn.headers!['content-security-policy']).toContain("form-action 'self';");
    expect(signIn.body).toContain('Sign in to continue to Closing &lt;Desk&gt;');
    expect(signIn.body).not.toContain('class="brand"');
  });
});

describe('client portal', () => {
  const kd = (keyDateType: string, dateValue: string, completedAt: string | null = null): KeyDate =>
    ({ transactionId: 't', keyDateType, dateValue, isCustom: false, label: null, source: null, calculationNotes: null, completedAt, address: 'a', createdAt: '', updatedAt: '' }) as KeyDate;
  const contact = (role: string, name: string, isPrimary = false): TransactionContact =>
    ({ transactionId: 't', contactId: name, role, isPrimary, type: 'person', name, email: `${name.toLowerCase()}@realty.example`, phone: '+15125550143', company: 'Hill Country Realty', linkedAt: '' }) as TransactionContact;
  const view = (over: Partial<PortalView>): PortalView => ({ address: '1207 Live Oak Ln', status: 'Under Contract', closedAt: null, keyDates: [], agent: undefined, documents: [], today: '2026-11-27', ...over });

  it('splits key dates: upcoming soonest first; past (before today or completed) newest first', () => {
    const { upcoming, past } = portalDates([kd('ClosingDate', '2026-12-20'), kd('InspectionDeadline', '2026-11-20'), kd('FinancingDeadline', '2026-12-01', '2026-11-25T10:00:00Z'), kd('OptionPeriod', '2026-11-27')], '2026-11-27');
    expect(upcoming.map((k) => k.keyDateType)).toEqual(['OptionPeriod', 'ClosingDate']);
    expect(past.map((k) => k.keyDateType)).toEqual(['FinancingDeadline', 'InspectionDeadline']);
  });

  it('all dates past: a Past section and no "No upcoming dates"', () => {
    const body = renderPortal(view({ keyDates: [kd('InspectionDeadline', '2026-11-01'), kd('ClosingDate', '2026-11-20')] }), undefined).body!;
    expect(body).toContain('<h2>Past key dates</h2><table class="past">');
    expect(body.indexOf('Nov 20, 2026')).toBeLessThan(body.indexOf('Nov 1, 2026'));
    expect(body).not.toMatch(/No upcoming dates|Upcoming key dates/);
    expect(renderPortal(view({}), undefined).body).toContain('No key dates yet.');
  });

  it("shows the agent of the deal's side, primary first, with mail and phone links", () => {
    const contacts = [contact('Listing Agent', 'Lee'), contact("Buyer's Agent", 'Sam'), contact("Buyer's Agent", 'Dana', true)];
    expect(agentOf({ side: 'Buyer', contacts })?.name).toBe('Dana');
    expect(agentOf({ side: 'Seller', contacts })?.name).toBe('Lee');
    expect(agentOf({ side: 'Buyer', contacts: [contact('Seller', 'X')] })).toBeUndefined();
    const body = renderPortal(view({ agent: agentOf({ side: 'Buyer', contacts }) }), brand).body!;
    expect(body).toContain('<h2>Your agent</h2>');
    expect(body).toContain('<a href="mailto:dana@realty.example">dana@realty.example</a>');
    expect(body).toContain('<a href="tel:+15125550143">+15125550143</a>');
    expect(body).toContain('<span>Hill Country &lt;Realty&gt;</span>');
  });
});
