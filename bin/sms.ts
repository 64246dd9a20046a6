/**
 * `npm run sms`: the local SMS stand-in's phone.
 *
 *   npm run sms -- reply --from +15125550143 [--to +15550100000] "Got it, thanks"
 *   npm run sms -- reply --from +15125550143 STOP        (HELP, START work the same way)
 *   npm run sms -- list [--json]
 *
 * `reply` builds the SNS event AWS End User Messaging's two-way SMS would deliver (lib/local/sms-events.ts) and runs
 * the real functions/inbound-sms handler (through `invokeLocally`, as the local runtime invokes its workers) against
 * the running `npm start`'s table (or, when none runs, a DynamoDB Local started on `.data/` for the command): the
 * text joins the conversation that last texted the number, and a keyword opts the number out or in, or gets the help
 * text — the confirmation lands in the SMS sink, as it would on the phone. It prints
 * `{outcome, from, to, body, inboundMessageId}`. `--to` defaults to the local runtime's own number. `list` shows the
 * texts sent and simulated, newest last. Exit code 1 on a usage error.
 */
// First: quiets Powertools before any module constructs its Logger (stdout is this command's JSON).
import '#lib/local/cli-telemetry';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { toE164 } from '#domain/textable-phone';
import { invokeLocally } from '#lib/local/invoke';
import { localMessagingPaths } from '#lib/local/messaging';
import { formatOutbox, readTexts } from '#lib/local/outbox';
import { connectLocalTable, localDataDir } from '#lib/local/runtime-file';
import { inboundSmsEvent, logInboundText } from '#lib/local/sms-events';
import { DEFAULT_LOCAL_SMS_FROM } from '#ports/sms/local';

const USAGE = `usage:
  npm run sms -- reply --from NUMBER [--to NUMBER] "TEXT"
  npm run sms -- list [--json]`;

class UsageError extends Error {}

async function reply(from: string | undefined, to: string | undefined, body: string | undefined) {
  const sender = from && toE164(from);
  if (!sender) throw new UsageError('--from must be a phone number (E.164, e.g. +15125550143, or a US number)');
  if (!body?.trim()) throw new UsageError('the text is required');
  const ours = to ?? process.env.LOCAL_SMS_FROM ?? DEFAULT_LOCAL_SMS_FROM;
  const dataDir = localDataDir();
  const { smsSink, smsInbound } = localMessagingPaths(dataDir);
  // The handler's confirmations (STOP/HELP/START) go where the running runtime's texts go.
  Object.assign(process.env, { SMS_TRANSPORT: 'local', LOCAL_SMS_SINK: smsSink });
  const cleanup = await connectLocalTable(dataDir);
  try {
    const { handler } = await import('#functions/inbound-sms/handler');
    const id = randomUUID();
    // Stamped on arrival, so a keyword's confirmation (sent while handling it) lists after it.
    const at = new Date();
    const [outcome] = await invokeLocally(handler, inboundSmsEvent({ from: sender, to: ours, body }, { id, at }), 'inbound-sms');
    logInboundText(smsInbound, { id, from: sender, to: ours, body, receivedAt: at.toISOString(), outcome });
    return { outcome, from: sender, to: ours, body, inboundMessageId: id };
  } finally {
    await cleanup();
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } },
  });
  const [verb, ...text] = positionals;
  if (verb === 'reply') {
    console.log(JSON.stringify(await reply(values.from, values.to, text.join(' ')), null, 2));
    return;
  }
  if (verb === 'list') {
    const texts = readTexts(localDataDir());
    console.log(values.json ? JSON.stringify(texts, null, 2) : formatOutbox(texts));
    return;
  }
  throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
}

main().catch((err: Error) => {
  const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(`error: ${err.message}${usage ? `\n${USAGE}` : ''}`);
  process.exitCode = 1;
});
