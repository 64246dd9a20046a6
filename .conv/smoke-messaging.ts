import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { startLocalRuntime } from '#lib/local/runtime';
import { createOrganization } from '#db/orgs';
import { createTransaction } from '#db/transactions';
import { sendDealEmail } from '#use-cases/messaging/send-email';
import { sendDealSms } from '#use-cases/messaging/send-sms';
import { receiveSms } from '#use-cases/messaging/receive-sms';
import { listCommunications } from '#db/communications';
import { storedMail } from '#lib/local/smtp-sink';
import { scheduleDealEmail } from '#use-cases/messaging/scheduled-email';
import { setClock } from '#ports/clock';
import nodemailer from 'nodemailer';
import { readFileSync } from 'node:fs';

const dataDir = mkdtempSync(path.join(tmpdir(), 'smoke-'));
const rt = await startLocalRuntime({ dataDir, tableName: 'smoke', port: 0 });
try {
  const org = await createOrganization({ name: 'Smoke Realty', ownerEmail: 'o@smoke.test' });
  const actor = { orgId: org.orgId, userId: org.ownerUserId };
  const t = await createTransaction(actor, { propertyAddress: { street: '1 Main', city: 'Austin', state: 'TX', zip: '78701' }, transactionType: 'Purchase', side: 'Buyer', status: 'Under Contract' });
  const m = await sendDealEmail(actor, { transactionId: t.id, kind: 'email', to: [{ address: 'buyer@example.com', name: 'Bea Buyer', contactId: null }], subject: 'Hello', text: 'Hi there' }, new Date());
  console.log('email', m.status, m.emailMessageId);
  const mails = storedMail(path.join(dataDir, 'mail'));
  console.log('stored', mails.length, mails[0]?.to);
  const replyTo = /Reply-To: (.*)/i.exec(mails[0].raw.toString())![1].trim();
  console.log('replyTo', replyTo);
  const tr = nodemailer.createTransport({ url: rt.messaging.smtp.url, ignoreTLS: true });
  await tr.sendMail({ from: 'buyer@example.com', to: replyTo, subject: 'Re: Hello', text: 'Thanks!', inReplyTo: m.emailMessageId!, references: [m.emailMessageId!] });
  await rt.messaging.idle(); await rt.s3.idle();
  await new Promise((r) => setTimeout(r, 500)); await rt.s3.idle();
  const sms = await sendDealSms(actor, { transactionId: t.id, phone: '(512) 555-0143', phoneField: 'toPhoneNumber', body: 'Docs ready', kind: 'sms', forceOverride: false, contactId: null, name: 'Bea' }, new Date());
  console.log('sms', sms.message.status, sms.message.to[0].address, sms.message.from);
  console.log(await receiveSms({ from: '+15125550143', to: '+15550100000', body: 'Got it', providerMessageId: 'in-1' }, new Date()));
  console.log(await receiveSms({ from: '+15125550143', to: '+15550100000', body: 'STOP', providerMessageId: 'in-2' }, new Date()));
  try { await sendDealSms(actor, { transactionId: t.id, phone: '+15125550143', phoneField: 'toPhoneNumber', body: 'again', kind: 'sms', forceOverride: true, contactId: null, name: null }, new Date()); } catch (e) { console.log('blocked:', (e as Error).message); }
  const now = Date.now();
  const sched = await scheduleDealEmail(actor, t.id, { scheduledAt: new Date(now + 3600_000).toISOString(), scheduledTimezone: 'America/Chicago', email: { toEmail: 'seller@example.com', ccAddresses: null, bccAddresses: null, subject: 'Later', body: 'Scheduled', htmlBody: null, fromAccountId: null, documentIds: [], documentFileNames: {} } }, new Date());
  console.log('scheduled', sched.scheduledLocal, sched.sendAt);
  setClock(() => now + 3700_000);
  console.log('ran', await rt.messaging.scheduler.tick());
  setClock();
  const comms = await listCommunications(org.orgId, t.id);
  console.log(comms.map((c) => `${c.channel} ${c.direction} ${c.status} ${c.kind} ${c.subject ?? c.bodyText} inReplyTo=${c.inReplyTo}`).join('\n'));
  console.log(readFileSync(path.join(dataDir, 'sms', 'outbound.jsonl'), 'utf8'));
} finally {
  await rt.stop();
}
