/**
 * Sends leave the request path (issue 24): the API groups' bundles hold no mail or SMS transport. Each group's
 * generated entry (lib/group-entries.ts) is bundled by esbuild with the aliases the functions ship with
 * (lib/service-function.ts `bundlingAliases`) and npm packages left external, which walks exactly the modules the
 * function would carry (a dynamic `import()` of a literal is followed too); the metafile then says whether a transport
 * is among them. Only groups whose operations still declare `mail:send` or `sms:send` may hold one, and none does:
 * the messaging group queues deal email and texts, and the account, disclosures and partner groups queue service
 * email (shared/use-cases/messaging/queue-service-email.ts), for the send worker (functions/message-send).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type Metafile } from 'esbuild';
import { LAMBDA_GROUPS, type LambdaGroup } from '#api/types';
import { loadOperations, type ModuleOperation } from '#lib/registry';
import { writeGroupEntries } from '#lib/group-entries';
import { bundlingAliases } from '#lib/service-function';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** npm packages that are transports. */
const TRANSPORT_PACKAGES = ['nodemailer', '@aws-sdk/client-sesv2', '@aws-sdk/client-pinpoint-sms-voice-v2'];
/** The project's transport adapters. */
const TRANSPORT_ADAPTERS = ['shared/ports/mail/aws.ts', 'shared/ports/mail/ses-plain.ts', 'shared/ports/mail/local.ts', 'shared/ports/sms/aws.ts', 'shared/ports/sms/local.ts'];

let dir: string;
let ops: ModuleOperation[];
const held = new Map<LambdaGroup, string[]>();

/** The transports one bundle holds: adapter files among its inputs, transport packages (by name) among its (external) imports. */
function transportsOf(output: Metafile['outputs'][string]): string[] {
  const found = new Set<string>();
  for (const file of Object.keys(output.inputs)) {
    const rel = path.relative(ROOT, path.resolve(ROOT, file)).split(path.sep).join('/');
    if (TRANSPORT_ADAPTERS.includes(rel)) found.add(rel);
  }
  for (const imp of output.imports) {
    // By package: the send worker imports nodemailer's parts (`nodemailer/lib/…`), not its index.
    const pkg = TRANSPORT_PACKAGES.find((p) => imp.path === p || imp.path.startsWith(`${p}/`));
    if (imp.external && pkg) found.add(pkg);
  }
  return [...found].sort();
}

/** Bundles `entries` in one esbuild run. @returns entry file → the transports its bundle holds */
async function transportsByEntry(entries: string[], xraySdk: boolean): Promise<Map<string, string[]>> {
  const out = await build({ entryPoints: entries, bundle: true, platform: 'node', format: 'esm', packages: 'external', alias: bundlingAliases(xraySdk), outdir: path.join(dir, 'out'), write: false, metafile: true, logLevel: 'silent', absWorkingDir: ROOT });
  const byEntry = new Map<string, string[]>();
  for (const output of Object.values(out.metafile.outputs)) if (output.entryPoint) byEntry.set(path.resolve(ROOT, output.entryPoint), transportsOf(output));
  return byEntry;
}

beforeAll(async () => {
  ops = await loadOperations();
  mkdirSync(path.join(ROOT, '.build'), { recursive: true });
  dir = mkdtempSync(path.join(ROOT, '.build', 'transport-entries-'));
  const entries = writeGroupEntries(ops, LAMBDA_GROUPS.filter((g) => ops.some((op) => op.group === g)), dir);
  const found = await transportsByEntry([...entries.values()], true);
  for (const [group, entry] of entries) held.set(group, found.get(path.resolve(entry))!);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('API group bundles and the transports', () => {
  it('finds transports where they are (the check can fail): the send worker holds nodemailer, SES v2 and the SMS client', async () => {
    const worker = path.join(ROOT, 'functions/message-send/handler.ts');
    const found = (await transportsByEntry([worker], false)).get(worker);
    expect(found).toEqual(expect.arrayContaining(['nodemailer', '@aws-sdk/client-sesv2', '@aws-sdk/client-pinpoint-sms-voice-v2', 'shared/ports/mail/aws.ts', 'shared/ports/mail/ses-plain.ts', 'shared/ports/sms/aws.ts']));
  });

  it('no group whose operations declare neither mail:send nor sms:send bundles a transport', () => {
    expect(held.size).toBeGreaterThan(10);
    const declares = (group: LambdaGroup) => ops.some((op) => op.group === group && (op.uses.includes('mail:send') || op.uses.includes('sms:send')));
    const offenders = [...held].filter(([group, transports]) => transports.length && !declares(group)).map(([group, transports]) => `${group}: ${transports.join(', ')}`);
    expect(offenders).toEqual([]);
  });

  it.each(['messaging', 'account', 'disclosures', 'partner'] as const)('the %s group queues: it declares no transport capability and bundles none', (group) => {
    expect(ops.filter((op) => op.group === group && (op.uses.includes('mail:send') || op.uses.includes('sms:send'))).map((op) => op.operationId)).toEqual([]);
    expect(ops.some((op) => op.group === group && op.uses.includes('messages:queue'))).toBe(true);
    expect(held.get(group)).toEqual([]);
  });

  it('no API group declares mail:send or sms:send: every send is queued for the worker', () => {
    expect(ops.filter((op) => op.uses.includes('mail:send') || op.uses.includes('sms:send')).map((op) => `${op.group}/${op.operationId}`)).toEqual([]);
  });
});
