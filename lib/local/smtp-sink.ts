/**
 * The local mail server (`npm start`, tests): a real SMTP server (smtp-server) on 127.0.0.1 that accepts every
 * message, keeps each one as an `.eml` file under `directory`, and hands mail addressed to the inbound domain (the
 * deals' reply addresses) to `onInbound`, as SES's receipt rule does in AWS. Before storing, it adds
 * `X-Original-To` with the envelope recipients (Bcc included), the header the inbound handler reads.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { freePort } from '#lib/local/dynamodb-local';

export interface LocalSmtp {
  /** `smtp://127.0.0.1:<port>` (`LOCAL_SMTP_URL`). */
  url: string;
  /** Where `.eml` files are written. */
  directory: string;
  /** Resolves when every inbound hand-off started so far has finished. */
  idle(): Promise<void>;
  /**
   * Makes the server slow: each message arriving from now on waits, unanswered after its DATA, until `release()`
   * (then it is stored and accepted as usual). For tests of a send that is still in flight.
   */
  hold(): SmtpHold;
  stop(): Promise<void>;
}

export interface LocalSmtpOptions {
  directory: string;
  /** Mail to this domain (case-insensitive) is inbound. */
  inboundDomain: string;
  /** Receives each inbound message (raw bytes with `X-Original-To`); errors are logged, the sender still gets 250. */
  onInbound?: (raw: Buffer, recipients: string[]) => Promise<unknown>;
  /** Errors of `onInbound` (default: written to stderr). */
  onError?: (err: unknown) => void;
  port?: number;
}

/** A hold on the local SMTP server (see {@link LocalSmtp.hold}). */
export interface SmtpHold {
  /** How many messages are waiting on the hold now. */
  waiting(): number;
  /** Accepts the waiting messages and every later one. */
  release(): void;
}

/** One stored message: its file and the envelope. */
export interface StoredMail {
  file: string;
  from: string;
  to: string[];
  receivedAt: string;
}

/**
 * Starts the server (no TLS, no authentication: loopback only).
 * @throws Error when the port is taken
 */
export async function startLocalSmtp(opts: LocalSmtpOptions): Promise<LocalSmtp> {
  mkdirSync(opts.directory, { recursive: true });
  const port = opts.port ?? (await freePort());
  const pending = new Set<Promise<unknown>>();
  let gate: { open: Promise<void>; waiting: number } | undefined;
  const onError = opts.onError ?? ((err: unknown) => process.stderr.write(`[local smtp] inbound hand-off failed: ${err instanceof Error ? err.message : String(err)}\n`));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    banner: 'tcs local mail',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const held = gate;
        if (held) {
          held.waiting++;
          await held.open;
          held.waiting--;
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const raw = Buffer.concat([Buffer.from(`X-Original-To: ${recipients.join(', ')}\r\n`), ...chunks]);
        const receivedAt = new Date().toISOString();
        const base = `${receivedAt.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
        writeFileSync(path.join(opts.directory, `${base}.eml`), raw);
        writeFileSync(path.join(opts.directory, `${base}.json`), JSON.stringify({ file: `${base}.eml`, from, to: recipients, receivedAt } satisfies StoredMail));
        const inbound = recipients.some((r) => r.toLowerCase().endsWith(`@${opts.inboundDomain.toLowerCase()}`));
        if (inbound && opts.onInbound) {
          const p = opts.onInbound(raw, recipients).catch(onError);
          pending.add(p);
          void p.finally(() => pending.delete(p));
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    directory: opts.directory,
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    hold() {
      let release!: () => void;
      const held = { open: new Promise<void>((resolve) => (release = resolve)), waiting: 0 };
      gate = held;
      return {
        waiting: () => held.waiting,
        release() {
          if (gate === held) gate = undefined;
          release();
        },
      };
    },
    async stop() {
      while (pending.size) await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The messages stored in `directory`, oldest first (with their raw bytes). */
export function storedMail(directory: string): (StoredMail & { raw: Buffer })[] {
  let names: string[];
  try {
    names = readdirSync(directory).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return names.map((n) => {
    const meta = JSON.parse(readFileSync(path.join(directory, n), 'utf8')) as StoredMail;
    return { ...meta, file: path.join(directory, meta.file), raw: readFileSync(path.join(directory, meta.file)) };
  });
}
