/**
 * Preflight line `sms-origination`: the configured `smsOriginationIdentity` exists in the deploy region, is
 * `ACTIVE`, uses the opt-out list the stack authorizes (`smsOptOutList`: `SendTextMessage` is granted on both), and
 * its registration is complete when it has one (US toll-free verification, or 10DLC brand and campaign).
 *
 * End User Messaging SMS (pinpoint-sms-voice-v2): `DescribePhoneNumbers`, `DescribePools` or `DescribeSenderIds` by
 * id, then `DescribeRegistrations` for a phone number's `RegistrationId`. A pool's registrations belong to its
 * numbers and are not read here. Since 2023 US carriers block application texts from unregistered numbers, and an
 * ordinary US long code cannot be registered at all.
 */
import {
  DescribePhoneNumbersCommand,
  DescribePoolsCommand,
  DescribeRegistrationsCommand,
  DescribeSenderIdsCommand,
  type PhoneNumberInformation,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { errorName, fail, ok, warn, type Check, type CheckResult, type PreflightEnv } from './check.ts';

type Identity = { kind: 'phone' | 'pool'; id: string; region?: string } | { kind: 'sender-id'; id: string; country: string; region: string };

const ARN = /^arn:aws[a-z-]*:sms-voice:([a-z0-9-]+):\d{12}:(phone-number\/(phone-[0-9a-f]{32})|pool\/(pool-[0-9a-f]{32})|sender-id\/([A-Za-z0-9-]{1,11})\/([A-Z]{2}))$/;

/** The identity as lib/messaging/settings.ts accepts it (an ARN, or a `phone-…`/`pool-…` id). */
export function parseOriginationIdentity(value: string): Identity {
  const m = ARN.exec(value);
  if (!m) return { kind: value.startsWith('pool-') ? 'pool' : 'phone', id: value };
  if (m[3]) return { kind: 'phone', id: m[3], region: m[1] };
  if (m[4]) return { kind: 'pool', id: m[4], region: m[1] };
  return { kind: 'sender-id', id: m[5], country: m[6], region: m[1] };
}

/** What to do for a registration in each status (`RegistrationStatus` of DescribeRegistrations). */
const REGISTRATION_ACTION: Record<string, string> = {
  CREATED: 'finish and submit it: End User Messaging SMS console → Registrations',
  SUBMITTED: 'wait: AWS and the carriers review it (toll-free verification takes days, 10DLC campaigns weeks)',
  AWS_REVIEWING: 'wait: AWS is reviewing it',
  REVIEWING: 'wait: the carriers are reviewing it',
  PROVISIONING: 'wait: the number is being provisioned',
  REQUIRES_UPDATES: 'the reviewers asked for changes: End User Messaging SMS console → Registrations, fix the fields they name and resubmit',
  REQUIRES_AUTHENTICATION: 'the 10DLC brand needs authentication: answer the verification email sent to the brand contact',
  CLOSED: 'it was closed: create a new registration (toll-free verification, or 10DLC brand and campaign)',
  DELETED: 'it was deleted: create a new registration (toll-free verification, or 10DLC brand and campaign)',
};

const optOutMismatch = (what: string, list: string | undefined, env: PreflightEnv): CheckResult | undefined =>
  list && list !== env.settings.messaging.smsOptOutList
    ? fail(
        `${what} uses opt-out list ${list}, but the stack authorizes sends on ${env.settings.messaging.smsOptOutList}: every SendTextMessage would be denied`,
        `deploy with -c smsOptOutList=${list}`,
      )
    : undefined;

async function phoneNumber(env: PreflightEnv, id: string): Promise<CheckResult> {
  let number: PhoneNumberInformation | undefined;
  try {
    number = (await env.clients.sms.send(new DescribePhoneNumbersCommand({ PhoneNumberIds: [id] }))).PhoneNumbers?.[0];
  } catch (err) {
    if (errorName(err) !== 'ResourceNotFoundException') throw err;
  }
  if (!number) return fail(`phone number ${id} does not exist in ${env.region}`, 'check smsOriginationIdentity: `aws pinpoint-sms-voice-v2 describe-phone-numbers` lists this region\'s numbers');
  const what = `${number.PhoneNumber ?? id} (${number.NumberType ?? '?'}, ${number.IsoCountryCode ?? '?'})`;
  const mismatch = optOutMismatch(what, number.OptOutListName, env);
  if (mismatch) return mismatch;
  const program = number.NumberType === 'TEN_DLC' ? '10DLC brand and campaign registration' : number.NumberType === 'TOLL_FREE' ? 'toll-free verification' : 'registration';
  if (number.RegistrationId) {
    const { Registrations: [registration] = [] } = await env.clients.sms.send(new DescribeRegistrationsCommand({ RegistrationIds: [number.RegistrationId] }));
    const state = registration?.RegistrationStatus ?? 'unknown';
    if (state !== 'COMPLETE') {
      return warn(`${what} is ${number.Status}; its ${program} ${number.RegistrationId} is ${state}: texts cannot be sent until it completes`, REGISTRATION_ACTION[state] ?? 'see End User Messaging SMS console → Registrations');
    }
  }
  if (number.Status !== 'ACTIVE') {
    return warn(`${what} is ${number.Status}, not ACTIVE: texts cannot be sent from it yet`, `complete its ${program} (End User Messaging SMS console → Registrations), then wait for ACTIVE`);
  }
  if (number.NumberType === 'SIMULATOR') return warn(`${what} is a simulator number: texts go to AWS's simulated destinations only`, 'use a toll-free or 10DLC number for real recipients');
  if (number.NumberType === 'LONG_CODE' && number.IsoCountryCode === 'US') {
    return warn(`${what} is an ordinary US long code: carriers block application texts from it`, 'use a toll-free number with toll-free verification, or a 10DLC number with a registered brand and campaign');
  }
  const twoWay = number.TwoWayEnabled ? undefined : 'after deploy, turn on two-way SMS to the stack output InboundSmsTopicArn (replies and STOP/HELP): `aws pinpoint-sms-voice-v2 update-phone-number --two-way-enabled --two-way-channel-arn <InboundSmsTopicArn>`';
  return ok(`${what} is ACTIVE${number.RegistrationId ? `, ${program} COMPLETE` : ''}, opt-out list ${number.OptOutListName ?? '?'}`, twoWay);
}

async function pool(env: PreflightEnv, id: string): Promise<CheckResult> {
  try {
    const { Pools: [found] = [] } = await env.clients.sms.send(new DescribePoolsCommand({ PoolIds: [id] }));
    if (found) {
      const mismatch = optOutMismatch(`pool ${id}`, found.OptOutListName, env);
      if (mismatch) return mismatch;
      if (found.Status !== 'ACTIVE') return warn(`pool ${id} is ${found.Status}, not ACTIVE`, 'wait until it is ACTIVE, then run preflight again');
      return ok(`pool ${id} is ACTIVE, opt-out list ${found.OptOutListName ?? '?'}`, `check each of its numbers' registration: \`aws pinpoint-sms-voice-v2 list-pool-origination-identities --pool-id ${id}\``);
    }
  } catch (err) {
    if (errorName(err) !== 'ResourceNotFoundException') throw err;
  }
  return fail(`pool ${id} does not exist in ${env.region}`, 'check smsOriginationIdentity: `aws pinpoint-sms-voice-v2 describe-pools` lists this region\'s pools');
}

async function senderId(env: PreflightEnv, id: string, country: string): Promise<CheckResult> {
  try {
    const { SenderIds: [found] = [] } = await env.clients.sms.send(new DescribeSenderIdsCommand({ SenderIds: [{ SenderId: id, IsoCountryCode: country }] }));
    if (found) {
      if (found.Registered === false) return warn(`sender ID ${id} (${country}) is not registered: countries that require registration drop its texts`, 'register it: End User Messaging SMS console → Registrations (sender ID registration for that country)');
      return ok(`sender ID ${id} (${country}) exists${found.Registered ? ' and is registered' : ''}`);
    }
  } catch (err) {
    if (errorName(err) !== 'ResourceNotFoundException') throw err;
  }
  return fail(`sender ID ${id} (${country}) does not exist in ${env.region}`, 'check smsOriginationIdentity: `aws pinpoint-sms-voice-v2 describe-sender-ids`');
}

export const smsOrigination: Check = {
  name: 'sms-origination',
  permissions: ['sms-voice:DescribePhoneNumbers', 'sms-voice:DescribePools', 'sms-voice:DescribeSenderIds', 'sms-voice:DescribeRegistrations'],
  async run(env) {
    const configured = env.settings.messaging.smsOriginationIdentity;
    if (!configured) {
      return warn('no smsOriginationIdentity: text sends answer 503', 'get a number in End User Messaging SMS (US: toll-free with toll-free verification, or 10DLC with a brand and campaign), then deploy with -c smsOriginationIdentity=<its phone-… id or ARN>');
    }
    const identity = parseOriginationIdentity(configured);
    if (identity.region && identity.region !== env.region) {
      return fail(`smsOriginationIdentity is in ${identity.region}, but the stack deploys to ${env.region}: texts cannot be sent from it`, `use a number in ${env.region}, or deploy to ${identity.region}`);
    }
    if (identity.kind === 'sender-id') return senderId(env, identity.id, identity.country);
    return identity.kind === 'pool' ? pool(env, identity.id) : phoneNumber(env, identity.id);
  },
};
