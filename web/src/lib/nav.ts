// The site map by role. The header's nav shows the top-level links a caller
// may open; the staff pages (reviewing, the club's administration) are
// listed in sections by the admin nav beside them, each link
// shown only to the roles its page admits (the server's page table decides;
// these rules mirror it so nobody is shown a link that sends them home).
import { common } from './i18n/common';
import { isAdmin, isPresident, isSuperadmin, isVP, type Profile } from './state/session.svelte';

export type NavItem = { href: string; label: string; show: (p: Profile | null) => boolean };
export type NavSection = { label: string; items: NavItem[] };

const signedIn = (p: Profile | null) => p !== null;

// adminSections is the staff side of the site, in the order a person meets
// the work: reviewing and the club's administration.
export const adminSections: NavSection[] = [
  {
    label: common.nav.sections.review,
    items: [
      { href: '/review', label: common.nav.review, show: isAdmin },
      { href: '/admin/applications', label: common.nav.applications, show: isAdmin },
    ],
  },
  {
    label: common.nav.sections.club,
    items: [
      { href: '/admin/dashboard', label: common.nav.dashboard, show: isSuperadmin },
      { href: '/admin/leaderboard', label: common.nav.leaderboard, show: isSuperadmin },
      { href: '/admin/assign', label: common.nav.assign, show: isSuperadmin },
      { href: '/admin/memberships', label: common.nav.memberships, show: isAdmin },
      { href: '/admin/receipts', label: common.nav.receipts, show: isAdmin },
      { href: '/admin/broadcasts', label: common.nav.broadcasts, show: isSuperadmin },
      { href: '/admin/emails', label: common.nav.emails, show: isSuperadmin },
      { href: '/admin/hackathons', label: common.nav.hackathons, show: isSuperadmin },
      { href: '/admin/terms', label: common.nav.terms, show: isSuperadmin },
      { href: '/admin/system', label: common.nav.system, show: isSuperadmin },
      { href: '/admin/access', label: common.nav.access, show: isSuperadmin },
    ],
  },
  {
    label: common.nav.sections.hiring,
    items: [
      { href: '/admin/applications/review', label: common.nav.selections, show: isVP },
      { href: '/admin/applications/hiring', label: common.nav.hiring, show: isPresident },
      { href: '/applications/questions', label: common.nav.questions, show: isVP },
      { href: '/onboarding/review', label: common.nav.onboardingReview, show: isVP },
    ],
  },
  {
    label: common.nav.sections.developers,
    items: [
      { href: '/nexus/foundry', label: common.nav.foundry, show: isAdmin },
      { href: '/nexus/projects', label: common.nav.projects, show: isAdmin },
    ],
  },
];

// adminLinks are the staff pages p may open, section by section (empty
// sections left out).
export function adminLinks(p: Profile | null): NavSection[] {
  return adminSections
    .map((s) => ({ label: s.label, items: s.items.filter((i) => i.show(p)) }))
    .filter((s) => s.items.length > 0);
}

// isAdminPath reports whether path is one of the staff pages (or below one,
// like /admin/applications/<id>): those pages show the admin nav.
export function isAdminPath(path: string): boolean {
  return adminSections.some((s) => s.items.some((i) => path === i.href || path.startsWith(i.href + '/')));
}

// adminHome is where the header's "Admin" link leads p: the first staff page
// they may open other than /review (which has a header link of its own), or
// null when there is none.
export function adminHome(p: Profile | null): string | null {
  for (const s of adminLinks(p)) {
    for (const i of s.items) if (i.href !== '/review') return i.href;
  }
  return null;
}

// formDue: p's onboarding form is open and not sent yet, so the header
// offers it beside the other links until it is.
const formDue = (p: Profile | null) => p?.onboarding?.open === true && !p.onboarding.submitted;

// checksIn: p may use the door's check-in page: an admin, or a volunteer
// of the current edition (the session says so).
export const checksIn = (p: Profile | null) => isAdmin(p) || p?.volunteer === true;

export const navItems: NavItem[] = [
  { href: '/onboarding', label: common.nav.onboarding, show: formDue },
  { href: '/apply', label: common.nav.apply, show: signedIn },
  { href: '/events', label: common.nav.events, show: signedIn },
  { href: '/review', label: common.nav.review, show: isAdmin },
  { href: '/checkin', label: common.nav.checkin, show: checksIn },
];

// pendingNav is the header links a signed-in caller most likely has on
// path, by label, shown invisibly while the session is read so the nav's
// rows are as many as they will be and nothing below moves when the links
// arrive (layout shift): a staff page is most often opened by an admin,
// any other page that needs signing in by a member.
export function pendingNav(path: string): string[] {
  const p = { role: isAdminPath(path) ? 'admin' : 'member', exec_role: null } as unknown as Profile;
  const labels = navItems.filter((i) => i.show(p)).map((i) => i.label);
  if (adminHome(p)) labels.push(common.nav.admin);
  return labels;
}

// holdsExecRole: p holds an exec role now, so the onboarding form is theirs.
const holdsExecRole = (p: Profile | null) => p?.exec_role != null;

export const menuItems: NavItem[] = [
  { href: '/profile', label: common.nav.profile, show: signedIn },
  { href: '/application', label: common.nav.application, show: signedIn },
  { href: '/onboarding', label: common.nav.onboarding, show: holdsExecRole },
];

// currentHref is the link among hrefs that names the page at path: the
// longest one equal to it or above it (so /admin/applications/review marks
// Selections, not Applications).
export function currentHref(path: string, hrefs: string[]): string | null {
  let best: string | null = null;
  for (const h of hrefs) {
    if ((path === h || path.startsWith(h + '/')) && (best === null || h.length > best.length)) best = h;
  }
  return best;
}
