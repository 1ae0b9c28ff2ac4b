// A refused or failed request as the pages need it: what kind of refusal
// (never a status code), the server's reason when the page words it
// differently (`reason`), its message and its per-field details. Services
// throw a ServiceError; components read `kind`, `reason` and `details`.

// ErrorKind names what happened, from the response's status.
export type ErrorKind =
  | 'offline' // the request never reached the server
  | 'aborted' // the page cancelled it (a newer upload)
  | 'invalid' // 400: `details` names the fields
  | 'unauthorized' // 401: signed out or wrong credentials
  | 'forbidden' // 403
  | 'notFound' // 404
  | 'conflict' // 409: changed meanwhile, or not allowed in this state
  | 'tooLarge' // 413
  | 'unsupported' // 415
  | 'unprocessable' // 422: an idempotency key reused with another body
  | 'rateLimited' // 429: `retryAfter` says how long to wait
  | 'unavailable' // 503: busy or a dependency is out of reach
  | 'server' // any other 5xx
  | 'other';

// The server's error titles that pages word or handle on their own, by
// reason. A title not listed has no reason.
const reasons = {
  'No term': 'noTerm',
  'No active term': 'noActiveTerm',
  'Term not found': 'termNotFound',
  'Account not found': 'accountNotFound',
  'Code host not configured': 'unconfigured',
  'Form closed': 'formClosed',
  'Nothing to finalize': 'nothingToFinalize',
  'Not the hiring term': 'notHiringTerm',
  'Applications are closed': 'applicationsClosed',
  'Over capacity': 'overCapacity',
  'That hackathon is not the current one': 'notCurrentHackathon',
  'Hackathon exists': 'hackathonExists',
  'Hackathon not found': 'hackathonNotFound',
  'Account scheduled for deletion': 'scheduledForDeletion',
  'Wrong password': 'wrongPassword',
  'Account cannot be deleted': 'cannotDelete',
} as const;
export type Reason = (typeof reasons)[keyof typeof reasons];

const kinds: Record<number, ErrorKind> = {
  [-1]: 'aborted',
  0: 'offline',
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  409: 'conflict',
  413: 'tooLarge',
  415: 'unsupported',
  422: 'unprocessable',
  429: 'rateLimited',
  503: 'unavailable',
};

// kindOf maps a response status (0: offline, -1: aborted) to its kind.
export function kindOf(status: number): ErrorKind {
  return kinds[status] ?? (status >= 500 ? 'server' : 'other');
}

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly reason: Reason | undefined;
  constructor(
    // kept for the shared wording (errorText); pages read `kind`
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly details: Readonly<Record<string, string>> = {},
    readonly retryAfter?: number,
  ) {
    super(detail ? `${title}: ${detail}` : title);
    this.kind = kindOf(status);
    this.reason = (reasons as Record<string, Reason>)[title];
  }
  get offline(): boolean {
    return this.kind === 'offline';
  }
}

type ErrorBody = { error?: string; message?: string; details?: Record<string, string> };

// toServiceError reads an error response: the status, the JSON body's
// `error`, `message` and `details`, and Retry-After in seconds.
export function toServiceError(status: number, body: unknown, retryAfter?: string | null): ServiceError {
  const b = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  const after = retryAfter ? Number(retryAfter) : undefined;
  return new ServiceError(status, b.error ?? `HTTP ${status}`, b.message, b.details ?? {}, Number.isFinite(after) ? after : undefined);
}

// failure is whatever a service call threw, as a ServiceError (a bug in
// the page becomes kind "other" with no words of its own).
export function failure(e: unknown): ServiceError {
  return e instanceof ServiceError ? e : new ServiceError(-2, 'error');
}

// isKind says whether e is a ServiceError of one of the kinds.
export function isKind(e: unknown, ...k: ErrorKind[]): e is ServiceError {
  return e instanceof ServiceError && k.includes(e.kind);
}
