// The one typed client of the hackdesk API, for the services in this
// folder only: components ask a service (applications.list(query)), never
// this client. `call` turns an openapi-fetch answer into its data or a
// ServiceError. Files go through ./transfer.ts.
import createClient from 'openapi-fetch';
import type { paths } from '../api';
import { ServiceError, toServiceError } from './errors';

export const client = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

type Answer<T> = { data?: T; error?: unknown; response: Response };

// call returns an answer's data or throws its ServiceError. A network
// failure (openapi-fetch throws a TypeError) is kind "offline".
export async function call<T>(answer: Promise<Answer<T>>): Promise<T> {
  let r: Answer<T>;
  try {
    r = await answer;
  } catch {
    throw new ServiceError(0, 'offline');
  }
  if (r.error !== undefined || !r.response.ok) {
    throw toServiceError(r.response.status, r.error, r.response.headers.get('Retry-After'));
  }
  return r.data as T;
}
