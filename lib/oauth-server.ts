/**
 * `OAuthServer`: the OAuth 2.1 authorization server's AWS side (spec "OAuth 2.1 flow"): the ES256 signing key in AWS
 * KMS (`ECC_NIST_P256`, `SIGN_VERIFY`: the private key never leaves KMS) and the function serving discovery,
 * registration, the sign-in and consent pages, token and revocation (functions/oauth/handler.ts; its routes are public
 * routes of the HTTP API, lib/public-routes.ts). Only this function may use the key (`kms:Sign`, and
 * `kms:GetPublicKey` once per cold start). Before it signs its first token it publishes the key's public half in the
 * table (an idempotent `PutItem` of `OAUTHKEY#<kid>`, shared/db/signing-keys.ts; `PutItem` is in its
 * `BASE_TABLE_ACCESS`), and the API functions verify tokens with that item (`GetItem`, cached per container): they
 * get no KMS permission, no key id and no KMS client in their bundles.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function.ts';
import { BASE_TABLE_ACCESS } from './table-access.ts';

export interface OAuthServerProps {
  readonly table: dynamodb.ITable;
  /** Absolute path of functions/oauth/handler.ts. */
  readonly entry: string;
}

export class OAuthServer extends Construct {
  /** The access-token signing key (ES256). */
  readonly signingKey: kms.Key;
  readonly fn: ServiceFunction;

  constructor(scope: Construct, id: string, props: OAuthServerProps) {
    super(scope, id);
    this.signingKey = new kms.Key(this, 'SigningKey', {
      description: 'Signs OAuth 2.1 access tokens (ES256); its public half is the JWKS at /.well-known/jwks.json',
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      // Losing the key only invalidates live tokens (users authorize again); nothing stored is encrypted with it.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    this.fn = new ServiceFunction(this, 'Server', {
      entry: props.entry,
      serviceName: 'oauth',
      description: 'OAuth 2.1 authorization server (functions/oauth/handler.ts)',
      xraySdk: false,
      deployment: 'api',
    });
    this.fn.bindTable(props.table, [...BASE_TABLE_ACCESS]);
    this.signingKey.grant(this.fn.fn, 'kms:Sign', 'kms:GetPublicKey');
    this.fn.fn.addEnvironment('OAUTH_SIGNING_KEY_ID', this.signingKey.keyArn);
  }
}
