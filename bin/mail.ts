/**
 * `npm run mail`: the local mail server's correspondent.
 *
 *   npm run mail -- reply "Option period ends Friday" "Thanks, noted."
 *   npm run mail -- reply .data/mail/2026-11-26T17-03-12.123Z-ab12cd.eml "Thanks, noted." [--from ADDRESS] [--wait SECONDS]
 *
 * `reply` answers the newest stored email whose subject contains the first argument (or the `.eml` file it names;
 * `npm run outbox` lists both) with the text, through the local SMTP server of the running `npm start` (its URL is in
 * `.data/local-runtime.json`; else `SMTP_PORT`, default 2525): to the email's `Reply-To`, from its first recipient
 * unless `--from`, with `In-Reply-To` and `References`, so the inbound-email handler threads it to the deal.
 * It waits up to `--wait` seconds (default 15) for the email to arrive, as a queued send lands a moment later.
 * Prints `{from, to, subject, inReplyTo, messageId, response}`. Exit code 1 when nothing matches or on a usage error.
 */
import { parseArgs } from 'node:util';
import { sendReply, waitForEmail } from '#lib/local/mail-reply';
import { localDataDir, runningRuntime } from '#lib/local/runtime-file';

const USAGE = `usage:
  npm run mail -- reply MESSAGE "TEXT" [--from ADDRESS] [--wait SECONDS]
    MESSAGE: a .eml file (npm run outbox lists them) or words of the email's subject`;

class UsageError extends Error {}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { from: { type: 'string' }, wait: { type: 'string' } } });
  const [command, which, text] = positionals;
  if (command !== 'reply') throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
  if (!which?.trim()) throw new UsageError('the message to answer is required');
  if (!text?.trim()) throw new UsageError('the text of the reply is required');
  const waitSeconds = Number(values.wait ?? 15);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) throw new UsageError('--wait must be a number of seconds');
  const dataDir = localDataDir();
  const original = await waitForEmail(dataDir, which, waitSeconds * 1000);
  if (!original) throw new Error(`no stored email matches ${JSON.stringify(which)} (npm run outbox lists them)`);
  const smtpUrl = runningRuntime(dataDir)?.smtpUrl ?? `smtp://127.0.0.1:${process.env.SMTP_PORT ?? 2525}`;
  console.log(JSON.stringify(await sendReply(smtpUrl, original, text, values.from)));
}

main().catch((err: Error) => {
  console.error(`error: ${err.message}${err instanceof UsageError ? `\n${USAGE}` : ''}`);
  process.exitCode = 1;
});
