// The one typed client of the hackdesk API. Pages call `api.GET(...)` etc.
// (openapi-fetch, typed from api/openapi.yaml) and turn a failure into an
// ApiError with `unwrap`; uploads with progress go through `upload`.
import createClient from 'openapi-fetch';
import type { components, paths } from '../api';

export type Schemas = components['schemas'];
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

// ApiError is a refused or failed request: the status, the server's
// `error` title, its optional `message` and per-field `details`.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly details: Record<string, string> = {},
    readonly retryAfter?: number,
  ) {
    super(detail ? `${title}: ${detail}` : title);
  }
  // offline is a request that never reached the server.
  get offline(): boolean {
    return this.status === 0;
  }
}

type ErrorBody = { error?: string; message?: string; details?: Record<string, string> };

function toApiError(status: number, body: unknown, retryAfter?: string | null): ApiError {
  const b = (body ?? {}) as ErrorBody;
  const after = retryAfter ? Number(retryAfter) : undefined;
  return new ApiError(status, b.error ?? `HTTP ${status}`, b.message, b.details ?? {}, Number.isFinite(after) ? after : undefined);
}

type Result<T> = { data?: T; error?: unknown; response: Response };

// unwrap returns a call's data or throws its ApiError. A network failure
// (openapi-fetch throws a TypeError) becomes an ApiError with status 0.
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'offline');
  }
  if (result.error !== undefined || !result.response.ok) {
    throw toApiError(result.response.status, result.error, result.response.headers.get('Retry-After'));
  }
  return result.data as T;
}

export type Upload<T> = { promise: Promise<T>; abort: () => void };

// upload posts a multipart form with progress (fetch has none) and can be
// aborted; onProgress receives a fraction from 0 to 1.
export function upload<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Upload<T> {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response as T);
      else reject(toApiError(xhr.status, xhr.response, xhr.getResponseHeader('Retry-After')));
    };
    xhr.onerror = () => reject(new ApiError(0, 'offline'));
    xhr.onabort = () => reject(new ApiError(-1, 'aborted'));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
