/**
 * SMS in AWS: AWS End User Messaging SMS (`pinpoint-sms-voice-v2` `SendTextMessage`), transactional, from the
 * origination identity `SMS_ORIGINATION_IDENTITY` (a phone number or pool ARN the operator provisioned), in the
 * configuration set `SMS_CONFIGURATION_SET`. The service's opt-out list is honoured before this is called; a text
 * to a number opted out at the carrier is refused here too.
 */
import { traced } from '#observability/powertools';
import { ConflictException, PinpointSMSVoiceV2Client, SendTextMessageCommand, ValidationException } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { SmsRejected, type SmsSender } from '#ports/sms';
import { config } from '#ports/config';

let client: PinpointSMSVoiceV2Client | undefined;

export function awsSms(): SmsSender {
  return {
    // The origination number's keyword configuration answers STOP, HELP and START.
    answersKeywords: true,
    async send(sms) {
      client ??= traced(new PinpointSMSVoiceV2Client({}));
      const origination = config.smsOriginationIdentity;
      try {
        const out = await client.send(
          new SendTextMessageCommand({
            DestinationPhoneNumber: sms.to,
            OriginationIdentity: origination,
            MessageBody: sms.body,
            MessageType: 'TRANSACTIONAL',
            ConfigurationSetName: config.smsConfigurationSet,
          }),
        );
        return { provider: 'sms', providerMessageId: out.MessageId!, from: origination.startsWith('+') ? origination : null };
      } catch (err) {
        // Conflict: the destination is on the opt-out list; Validation: not a textable number.
        if (err instanceof ConflictException || err instanceof ValidationException) throw new SmsRejected(`The text was refused: ${err.message}`);
        throw err;
      }
    },
  };
}
