/**
 * Intake-form submissions (spec "Templates and forms": `GET /form-submissions`, field-level detail). One item per
 * submission: `PK = ORG#<orgId>#FORMSUB#<id>`, `SK = FORMSUB`; listed newest first across the organization on GSI1
 * (`ORG#<orgId>#FORMSUBS`, `<receivedAt>#<id>`) and per deal on GSI2 (`ORG#<orgId>#TXN#<transactionId>#FORMSUBS`).
 * A submission is written with its `form.submission_received` outbox event in one transaction (shared/use-cases/intake.ts).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#db/client';
import { formSubmissionPk, gsi1, gsi2 } from '#db/keys';
import { queryUpTo } from '#db/query-up-to';
import { transactWrite, type TransactItem } from '#db/transact';
import { NotFound } from '#domain/errors';
import type { FormDefinition, FormValues } from '#domain/intake-forms';

/** Statuses of a submission: received (the only one a client makes; later review states are not built). */
export type SubmissionStatus = 'received';

/** A stored submission, with each field's label and value as they were when submitted. */
export interface FormSubmission {
  id: string;
  transactionId: string;
  formDefinitionId: string;
  formName: string;
  formPurpose: string;
  formVersion: number;
  status: SubmissionStatus;
  fields: { name: string; label: string; type: string; value: string }[];
  receivedAt: string;
}

const pk = formSubmissionPk;
const orgList = gsi1.formSubmissions;
const dealList = gsi2.dealFormSubmissions;

const toSubmission = (i: Record<string, any>): FormSubmission => ({
  id: i.id,
  transactionId: i.transactionId,
  formDefinitionId: i.formDefinitionId,
  formName: i.formName,
  formPurpose: i.formPurpose,
  formVersion: i.formVersion,
  status: i.status,
  fields: i.fields,
  receivedAt: i.receivedAt,
});

/** Stores a client's submission of `form` for the deal, with the caller's `extra(submission)` writes in the same transaction. */
export async function insertSubmission(orgId: string, transactionId: string, form: FormDefinition, values: FormValues, now: Date, extra: (s: FormSubmission) => TransactItem[]): Promise<FormSubmission> {
  const s: FormSubmission = {
    id: randomUUID(),
    transactionId,
    formDefinitionId: form.id,
    formName: form.name,
    formPurpose: form.purpose,
    formVersion: form.version,
    status: 'received',
    fields: form.fields.map((f) => ({ name: f.name, label: f.label, type: f.type, value: values[f.name] ?? '' })),
    receivedAt: now.toISOString(),
  };
  const sk = `${s.receivedAt}#${s.id}`;
  await transactWrite([
    {
      Put: {
        TableName: tableName(),
        Item: { PK: pk(orgId, s.id), SK: 'FORMSUB', entity: 'FormSubmission', orgId, ...s, GSI1PK: orgList(orgId), GSI1SK: sk, GSI2PK: dealList(orgId, transactionId), GSI2SK: sk },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    ...extra(s),
  ]);
  return s;
}

/** One submission. @throws NotFound when absent or another organization's */
export async function getSubmission(orgId: string, id: string): Promise<FormSubmission> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: pk(orgId, id), SK: 'FORMSUB' } }));
  if (!out.Item) throw new NotFound('Form submission');
  return toSubmission(out.Item);
}

/** Filters of `GET /form-submissions`. */
export interface SubmissionFilter {
  transactionId?: string;
  formDefinitionId?: string;
  formPurpose?: string;
  status?: string;
  /** Only submissions received after this instant (ISO). */
  since?: string;
  limit: number;
}

/** Submissions newest first, at most `limit`. */
export async function listSubmissions(orgId: string, f: SubmissionFilter): Promise<FormSubmission[]> {
  const [index, pkName, skName, pkValue] = f.transactionId ? ['GSI2', 'GSI2PK', 'GSI2SK', dealList(orgId, f.transactionId)] : ['GSI1', 'GSI1PK', 'GSI1SK', orgList(orgId)];
  const filters: string[] = [];
  const values: Record<string, unknown> = { ':pk': pkValue };
  if (f.formDefinitionId) (filters.push('formDefinitionId = :form'), (values[':form'] = f.formDefinitionId));
  if (f.formPurpose) (filters.push('formPurpose = :purpose'), (values[':purpose'] = f.formPurpose));
  if (f.status) (filters.push('#status = :status'), (values[':status'] = f.status));
  if (f.since) values[':since'] = f.since;
  const items = await queryUpTo(
    {
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: f.since ? `${pkName} = :pk AND ${skName} > :since` : `${pkName} = :pk`,
      FilterExpression: filters.length ? filters.join(' AND ') : undefined,
      ExpressionAttributeNames: f.status ? { '#status': 'status' } : undefined,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    },
    f.limit,
  );
  return items.slice(0, f.limit).map(toSubmission);
}
