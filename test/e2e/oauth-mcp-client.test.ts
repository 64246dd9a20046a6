/**
 * An MCP client authorizes itself with the MCP TypeScript SDK's own OAuth support (`@modelcontextprotocol/sdk`
 * client auth, third-party code): a 401 from `/mcp` names the RFC 9728 metadata, the SDK discovers this authorization
 * server, registers (RFC 7591), sends the user to the authorization URL with PKCE S256 and `resource` (RFC 8707), and
 * exchanges the code; the user's part (sign-in with the mailed code, consent) is answered with form posts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt } from 'jose';
import { createOrganization } from '#db/orgs';
import { startTestRuntime, type TestRuntime } from '../support/runtime-harness.ts';
import { signInAndConsent } from '../support/oauth-flow.ts';

let h: TestRuntime;
const email = `mcp+${randomUUID().slice(0, 8)}@example.test`;
let org: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  h = await startTestRuntime('oauth-mcp');
  org = await createOrganization({ name: 'MCP Realty', ownerEmail: email, ownerFirstName: 'Mo', ownerLastName: 'Chen' });
}, 120_000);
afterAll(() => h?.close());

/** An in-memory provider, as a desktop MCP client keeps one; "opening the browser" signs in with form posts. */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  callback?: URL;
  readonly redirectUrl = 'http://127.0.0.1:8978/callback';
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test MCP Client', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'read draft' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.callback = await signInAndConsent({ baseUrl: h.rt.baseUrl, mailDir: h.rt.messaging.smtp.directory, authorizeUrl: url.href, email });
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('MCP SDK client auth against /mcp', () => {
  it('401 → discovery → registration → PKCE authorization → token; then tools/list and a tool call with the token', { timeout: 60_000 }, async () => {
    const provider = new TestProvider();
    const mcpUrl = new URL(`${h.rt.baseUrl}/mcp`);
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(new Client({ name: 'test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toEqual(expect.any(String));
    const code = provider.callback?.searchParams.get('code');
    expect(code, `callback: ${provider.callback}`).toEqual(expect.any(String));
    await first.finishAuth(code!);

    const claims = decodeJwt(provider.saved!.access_token);
    // The SDK asks for the scopes the protected-resource metadata lists (scopes_supported), over its own metadata's.
    expect(claims).toMatchObject({ aud: `${h.rt.baseUrl}/mcp`, org_id: org.orgId, client_id: provider.info!.client_id, scope: 'read draft actions' });

    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['getHealth', 'createWebhook']));
    const health = await client.callTool({ name: 'getHealth', arguments: {} });
    expect(health.structuredContent).toMatchObject({ ok: true, organizationId: org.orgId, scopes: ['read', 'draft', 'actions'] });
    await client.close();
  });
});
