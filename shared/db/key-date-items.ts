/**
 * Key-date items: `PK = ORG#<orgId>#TXN#<id>`, `SK = KD#<keyDateType>`, so a type appears at most once per
 * transaction by construction (writing it again overwrites). While open (no `completedAt`) a key date is in the
 * sparse GSI1 `ORG#<orgId>#KEYDATES` / `<date>#<transactionId>#<type>`, which serves the cross-deal upcoming list:
 * a read of it returns only open dates, so its `Limit` bounds the items read.
 */
import { tableName } from '#db/client';
import { gsi1, txnPk } from '#db/keys';

export interface KeyDate {
  transactionId: string;
  keyDateType: string;
  /** Calendar date `YYYY-MM-DD`. */
  dateValue: string;
  isCustom: boolean;
  label: string | null;
  source: string | null;
  calculationNotes: string | null;
  completedAt: string | null;
  address: string;
  createdAt: string;
  updatedAt: string;
}

export function keyDateItem(orgId: string, kd: KeyDate) {
  return {
    PK: txnPk(orgId, kd.transactionId),
    SK: `KD#${kd.keyDateType}`,
    entity: 'KeyDate',
    orgId,
    ...kd,
    ...(kd.completedAt ? {} : { GSI1PK: gsi1.keyDates(orgId), GSI1SK: `${kd.dateValue}#${kd.transactionId}#${kd.keyDateType}` }),
  };
}

/** The `Put` of a key date inside a transaction. */
export const keyDatePut = (orgId: string, kd: KeyDate) => ({ Put: { TableName: tableName(), Item: keyDateItem(orgId, kd) } });

export function toKeyDate(item: Record<string, any>): KeyDate {
  const { transactionId, keyDateType, dateValue, isCustom, label, source, calculationNotes, completedAt, address, createdAt, updatedAt } = item;
  return {
    transactionId,
    keyDateType,
    dateValue,
    isCustom: Boolean(isCustom),
    label: label ?? null,
    source: source ?? null,
    calculationNotes: calculationNotes ?? null,
    completedAt: completedAt ?? null,
    address,
    createdAt,
    updatedAt,
  };
}
