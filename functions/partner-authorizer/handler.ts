/**
 * The partner stage's Lambda authorizer (REQUEST type; lib/partner-api.ts). It admits a live `rsk_` partner key and
 * returns the API Gateway API key its usage plan meters it by (`usageIdentifierKey`, the stage's API keys come from
 * the authorizer: `apiKeySource: AUTHORIZER`). Anything else is `Unauthorized` (401 in the spec's envelope, through the
 * stage's Gateway Responses). The partner function authenticates the key again, with the app's own per-key rate limits.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { bearerOf } from '#http/middleware/authenticate';
import { PARTNER_KEY_PREFIX } from '#db/api-keys';
import { partnerKeyForStage } from '#db/partners';
import { observedHandler } from '#observability/powertools';

export const handler = observedHandler(async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const token = bearerOf(event.headers ?? undefined);
  if (!token?.startsWith(PARTNER_KEY_PREFIX)) throw new Error('Unauthorized');
  const key = await partnerKeyForStage(token);
  if (!key?.usageKey) throw new Error('Unauthorized');
  return {
    principalId: key.keyId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
    usageIdentifierKey: key.usageKey,
    context: { partnerId: key.partnerId },
  };
});
