/**
 * Vocabulary of the operations (spec "Endpoints", "Scopes"): HTTP methods, scopes, the Lambda groups and the
 * capabilities an operation can ask of its group's function.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Organization scopes, spec "Scopes": read, draft and actions are independent grants, not a hierarchy. */
export type Scope = 'read' | 'draft' | 'actions';

/** `partner` marks `/api/v1/orgs/*`, callable only with an `rsk_` partner key. */
export type Access = Scope | 'partner';

/**
 * One Lambda function per resource group. An operation's group is the folder its module lives in
 * (`functions/<group>/<operation>.ts`); a new group is added here.
 */
export const LAMBDA_GROUPS = [
  'meta',
  'transactions',
  'key-dates',
  'tasks',
  'documents',
  'extractions',
  'messaging',
  'reports',
  'contacts',
  'disclosures',
  'proposals',
  'templates',
  'webhooks',
  'account',
  'partner',
] as const;
export type LambdaGroup = (typeof LAMBDA_GROUPS)[number];

/**
 * What an operation needs beyond the table access every API function has (lib/table-access.ts). Its group's
 * function is granted the union of its operations' capabilities, and nothing else:
 * - `table:delete`, `table:batch-get`: `DeleteItem` and `BatchGetItem` on the table;
 * - `documents:read`, `documents:write`: the documents bucket (presigned GETs; PUTs and deletes);
 * - `extraction:start`: starting the extraction state machine;
 * - `reports:build`: having stored reports built by the report workers (invoking them; presigned GETs of
 *   `reports/*`: lib/report-builder.ts);
 * - `mail:send`: sending email (SES and the configuration set; members' SMTP passwords in Secrets Manager);
 * - `sms:send`: sending texts (AWS End User Messaging SMS);
 * - `messages:queue`: queuing deal email and texts, or service email (disclosure shares, invitations, workspace
 *   notices), for the send worker (functions/message-send), which alone holds the transports; no IAM beyond the
 *   table, the route's outbound throttle and `PUBLIC_BASE_URL` (links in messages);
 * - `catalog`: the function is built with the list of every operation (for `GET /catalog`);
 * - `phone-numbers`: the operation parses phone numbers (libphonenumber-js metadata, ~135 KB; no IAM).
 */
export type Capability =
  | 'table:delete'
  | 'table:batch-get'
  | 'documents:read'
  | 'documents:write'
  | 'extraction:start'
  | 'reports:build'
  | 'mail:send'
  | 'sms:send'
  | 'messages:queue'
  | 'catalog'
  | 'phone-numbers';
