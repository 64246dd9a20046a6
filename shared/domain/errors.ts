/**
 * Domain errors: what repositories, use cases and domain rules throw. They name what went wrong in the
 * field's terms and know nothing of HTTP; `shared/http/errors.ts` maps each class to a status and envelope
 * code in one place, by `instanceof`.
 */

/** Base class: every error the domain throws on purpose. */
export class DomainError extends Error {
  /** @param options.cause the underlying failure, for the logs (never shown to the caller) */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The thing is absent, or belongs to another organization: the two are indistinguishable by design
 * (spec "Tenant isolation": 404, never 403, and a 404 does not show whether an id is used).
 * @param entity what was looked for, e.g. `Transaction`
 */
export class NotFound extends DomainError {
  constructor(readonly entity = 'Resource') {
    super(`${entity} not found.`);
  }
}

/**
 * The request is valid but clashes with the current state (a job already running, a deal changed meanwhile, an
 * email another contact has). `fields` names what it clashes on, in the request's terms (dotted path → message),
 * where one field or identifier is the cause: an operation the spec does not mark (IK) answers such a clash as a
 * 422 naming it (spec "Endpoints": 409 only where marked (IK); see shared/http/errors.ts).
 */
export class Conflict extends DomainError {
  constructor(
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * Input that passed the schema but breaks a rule; `fields` maps each offending field (dotted path, array
 * indexes in brackets) to a message.
 */
export class InvalidInput extends DomainError {
  constructor(
    readonly fields: Record<string, string>,
    message = 'The request is invalid.',
  ) {
    super(message);
  }
}

/** The caller holds the scope, but the rule is about who acts (e.g. only a comment's author deletes it). */
export class Forbidden extends DomainError {}

/** A dependency the operation needs (Step Functions, a mail provider) refused or is unreachable; retry later. */
export class Unavailable extends DomainError {}
