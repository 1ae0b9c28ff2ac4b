// A download read as a stream (fetch + ReadableStream) so the page can say
// how many bytes have arrived, then saved through a blob: URL.
import { ApiError } from '$lib/services/api';
import { filenameOf } from './state';

export type Fetched = { bytes: Uint8Array; type: string; filename: string };

export async function fetchFile(url: string, fallbackName: string, onProgress: (received: number) => void): Promise<Fetched> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'offline');
  }
  if (!res.ok) {
    let body: { error?: string; message?: string } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      // not JSON: the status says it
    }
    throw new ApiError(res.status, body.error ?? `HTTP ${res.status}`, body.message);
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress(0);
  if (res.body) {
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        onProgress(received);
      }
    } catch {
      throw new ApiError(0, 'offline');
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

// save hands the file to the browser's downloads through a blob: URL.
export function save(f: Fetched): void {
  const url = URL.createObjectURL(new Blob([f.bytes as BlobPart], { type: f.type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = f.filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
