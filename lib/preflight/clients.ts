/**
 * The AWS clients preflight calls, one per service, all in the deploy region. Built once by bin/preflight.ts; the
 * unit tests build the same clients and mock them with aws-sdk-client-mock.
 */
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { SESClient } from '@aws-sdk/client-ses';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';

/** One client per service preflight reads. */
export interface AwsClients {
  readonly cloudFormation: CloudFormationClient;
  readonly ssm: SSMClient;
  readonly sesv2: SESv2Client;
  /** SES v1: receipt rule sets have no v2 API. */
  readonly ses: SESClient;
  readonly lambda: LambdaClient;
  readonly sms: PinpointSMSVoiceV2Client;
}

/**
 * @param region the deploy region; undefined lets the SDK resolve it (`AWS_REGION`, then the profile's `region`)
 * @param profile a named profile of ~/.aws/config; undefined: `AWS_PROFILE` or the default chain
 */
export function createClients(region?: string, profile?: string): AwsClients {
  const config = { region, profile, maxAttempts: 2 };
  return {
    cloudFormation: new CloudFormationClient(config),
    ssm: new SSMClient(config),
    sesv2: new SESv2Client(config),
    ses: new SESClient(config),
    lambda: new LambdaClient(config),
    sms: new PinpointSMSVoiceV2Client(config),
  };
}

/** The region the clients resolved. @throws Error when none is configured */
export async function resolvedRegion(clients: AwsClients): Promise<string> {
  return clients.sesv2.config.region();
}
