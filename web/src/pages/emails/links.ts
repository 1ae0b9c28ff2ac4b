// The text body of an email as runs of plain text and links: every http(s)
// URL becomes a link, everything else stays text (escaped when rendered).
// A sentence's closing punctuation after a URL is not part of it.
export type Segment = { text: string; href?: string };

const URL_RE = /https?:\/\/[^\s<>"'`]+/g;
const TRAILING = /[.,;:!?)\]}'"]+$/;

export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    let url = m[0];
    const tail = TRAILING.exec(url);
    if (tail) url = url.slice(0, url.length - tail[0].length);
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at) });
    if (url.length > 'https://'.length) out.push({ text: url, href: url });
    else out.push({ text: url });
    last = at + url.length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

// The server replaces the bodies of emails that carried a one-time link
// with a notice that starts like this.
export function isRedacted(text: string): boolean {
  return text.trimStart().startsWith('[Redacted:');
}
