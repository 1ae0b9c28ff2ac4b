// The applicant's links as the page shows them: only web addresses become
// links (an answer is the applicant's text, so no other scheme is followed).
export type LinkKey = 'github_url' | 'linkedin_url' | 'website_url';
export const linkKeys: readonly LinkKey[] = ['github_url', 'linkedin_url', 'website_url'];

// webHref is the address as a link target, or null when it is not an
// http(s) address.
export function webHref(raw: string | null | undefined): string | null {
  const s = raw?.trim();
  if (!s) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}
