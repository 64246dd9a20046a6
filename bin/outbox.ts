/**
 * `npm run outbox [-- --json]`: what the local runtime sent and received, newest last — the emails its SMTP server
 * got (time, from, to, subject, `.eml` file, then each link the email carries, decoded) and the texts of its SMS
 * sink (and texts simulated with `npm run sms -- reply`). Answer an email with `npm run mail -- reply`. Reads the files under `DATA_DIR` (default `.data`); `npm start` need not be running.
 * `--json` prints the entries as a JSON array (lib/local/outbox.ts `OutboxEntry`).
 */
import { parseArgs } from 'node:util';
import { formatOutbox, readOutbox } from '#lib/local/outbox';
import { localDataDir } from '#lib/local/runtime-file';

async function main() {
  const { values } = parseArgs({ options: { json: { type: 'boolean' } } });
  const entries = await readOutbox(localDataDir());
  console.log(values.json ? JSON.stringify(entries, null, 2) : formatOutbox(entries));
}

main().catch((err: Error) => {
  console.error(`error: ${err.message}\nusage: npm run outbox [-- --json]`);
  process.exitCode = 1;
});
