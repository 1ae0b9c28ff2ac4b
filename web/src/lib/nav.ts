// The site map by role: the shell's nav shows the links a caller may open.
// Later page groups add their rows here.
import { common } from './i18n/common';
import { isAdmin, type Profile } from './state/session.svelte';

export type NavItem = { href: string; label: string; show: (p: Profile | null) => boolean };

const signedIn = (p: Profile | null) => p !== null;

export const navItems: NavItem[] = [
  { href: '/apply', label: common.nav.apply, show: signedIn },
  { href: '/events', label: common.nav.events, show: signedIn },
  { href: '/review', label: common.nav.review, show: isAdmin },
];

export const menuItems: NavItem[] = [
  { href: '/profile', label: common.nav.profile, show: signedIn },
  { href: '/application', label: common.nav.application, show: signedIn },
];
