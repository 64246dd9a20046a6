/**
 * The SMS port: sends one text. In AWS (`SMS_TRANSPORT=aws`, the default) through AWS End User Messaging SMS
 * (`SendTextMessage` from `SMS_ORIGINATION_IDENTITY`, configuration set `SMS_CONFIGURATION_SET`); locally
 * (`SMS_TRANSPORT=local`) into the local runtime's SMS sink (`LOCAL_SMS_SINK`, a JSON-lines file; see
 * shared/ports/sms/local.ts; `npm run sms -- list` shows it). Opt-outs are checked by the caller before sending,
 * whatever the transport. The transport for the environment is `smsSender()` in shared/ports/sms/transport.ts.
 */
/** A text to send. `to` is E.164 (`+15125550143`). */
export interface OutboundSms {
  to: string;
  body: string;
}

/** What the transport reports for an accepted text. */
export interface SentSms {
  /** `sms` (End User Messaging) or `local`. */
  provider: string;
  providerMessageId: string;
  /** The number it was sent from (E.164), when known. */
  from: string | null;
}

export interface SmsSender {
  /**
   * True when the carrier side answers STOP/HELP/START itself (AWS End User Messaging's keyword responses), so the
   * service must not send its own confirmation as well.
   */
  readonly answersKeywords: boolean;
  /**
   * @throws SmsRejected when the provider refuses the text for good (opted out at the carrier, invalid number)
   * @throws Error for transient failures
   */
  send(sms: OutboundSms): Promise<SentSms>;
}

/** The provider refused the text permanently; `reason` is safe to show. */
export class SmsRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SmsRejected';
  }
}
