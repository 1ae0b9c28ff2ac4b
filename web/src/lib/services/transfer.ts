// Files to and from the API, for the services: `upload` posts a form with
// progress (fetch has none), `download` reads a file as a stream so the
// page can say how much has arrived. Both fail with a ServiceError.
import { ServiceError, toServiceError } from './errors';
import type { Upload } from './types';

// upload posts a multipart form with progress (fetch has none) and can be
// aborted (kind "aborted"); onProgress receives a fraction from 0 to 1.
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
      else reject(toServiceError(xhr.status, xhr.response, xhr.getResponseHeader('Retry-After')));
    };
    xhr.onerror = () => reject(new ServiceError(0, 'offline'));
    xhr.onabort = () => reject(new ServiceError(-1, 'aborted'));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

export type Downloaded = { bytes: Uint8Array; type: string; filename: string };

// download reads a file as a stream (fetch + ReadableStream) so the page
// can say how many bytes have arrived, and of how many when the answer
// says (Content-Length; null otherwise); the name comes from
// Content-Disposition, else the fallback.
export async function download(url: string, fallbackName: string, onProgress: (received: number, total: number | null) => void): Promise<Downloaded> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin' });
  } catch {
    throw new ServiceError(0, 'offline');
  }
  if (!res.ok) {
    let body: unknown = {};
    try {
      body = await res.json();
    } catch {
      // not JSON: the status says it
    }
    throw toServiceError(res.status, body, res.headers.get('Retry-After'));
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  const length = Number(res.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  onProgress(0, total);
  if (res.body) {
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        onProgress(received, total);
      }
    } catch {
      throw new ServiceError(0, 'offline');
    }
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, type: res.headers.get('Content-Type') ?? 'application/octet-stream', filename: filenameOf(res.headers.get('Content-Disposition'), fallbackName) };
}

// filenameOf reads a download's name from Content-Disposition, or the
// fallback when there is none or it is not a plain file name.
export function filenameOf(disposition: string | null, fallback: string): string {
  const m = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  const name = m?.[1] ? decodeURIComponent(m[1]) : '';
  return /^[\w.-]+$/.test(name) ? name : fallback;
}
