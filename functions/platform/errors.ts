/**
 * Typed errors thrown by services; `platform/http.ts` maps them to HTTP once (API §0.2).
 */

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract body(): unknown;
}

/** 422: the request (body, path, query) or its document is invalid. */
export class Invalid extends AppError {
  readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'Invalid';
  }
  static at(loc: (string | number)[], msg: string, type = 'value_error', input?: unknown): Invalid {
    const issue: ValidationIssue = { loc, msg, type };
    if (input !== undefined) issue.input = input;
    return new Invalid([issue]);
  }
  body() {
    return { detail: this.issues };
  }
}

/** 404, answered identically for unknown ids and ids of another environment or organization. */
export class NotFound extends AppError {
  readonly status = 404;
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'NotFound';
  }
  static of(resource: string, id: string): NotFound {
    return new NotFound(`${resource} ${id} not found`);
  }
  body() {
    return { detail: this.detail };
  }
}

abstract class DetailError extends AppError {
  constructor(readonly detail: unknown) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
  body() {
    return { detail: this.detail };
  }
}

/** 400: a request the route refuses as a whole (e.g. a list that must be scoped, API §9.3). */
export class BadRequest extends DetailError {
  readonly status = 400;
  override name = 'BadRequest';
}
export class Unauthorized extends DetailError {
  readonly status = 401;
  override name = 'Unauthorized';
}
export class Forbidden extends DetailError {
  readonly status = 403;
  override name = 'Forbidden';
}
export class Conflict extends DetailError {
  readonly status = 409;
  override name = 'Conflict';
}
export class Gone extends DetailError {
  readonly status = 410;
  override name = 'Gone';
}
export class PayloadTooLarge extends DetailError {
  readonly status = 413;
  override name = 'PayloadTooLarge';
}

/**
 * The error of a failed run (API §0.2 PrimitiveError). Thrown by task code; the run state machine
 * records it on the run.
 */
export type PrimitiveErrorCode =
  | 'document_invalid'
  | 'document_unsupported'
  | 'model_error'
  | 'model_unavailable'
  | 'timeout'
  | 'missing_secret'
  | 'configuration_error'
  | 'internal';

export class RunFailure extends Error {
  constructor(
    readonly code: PrimitiveErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'RunFailure';
  }
}

/** Thrown for failures worth retrying (throttling, a dependency briefly down): the state machine retries it. */
export class TransientError extends Error {
  override name = 'TransientError';
}

/**
 * Error names AWS services use when a caller goes too fast or the service is briefly overloaded
 * (DynamoDB, S3, KMS, Step Functions). The SDK clients already retried them (standard retry mode,
 * 3 attempts) before the error reaches our code.
 */
const BUSY_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'SlowDown',
  'ServiceUnavailable',
  'InternalServerError',
  'InternalError',
]);

/** Whether an error says the storage (or another AWS dependency) is busy: worth answering 503, retry later. */
export function isServiceBusy(error: unknown): boolean {
  const name = (error as { name?: unknown })?.name;
  const status = (error as { $metadata?: { httpStatusCode?: unknown } })?.$metadata?.httpStatusCode;
  return (typeof name === 'string' && BUSY_ERROR_NAMES.has(name)) || status === 503;
}
