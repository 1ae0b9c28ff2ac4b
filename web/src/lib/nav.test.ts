import { describe, expect, it } from 'vitest';
import { common } from './i18n/common';
import { adminHome, adminLinks, currentHref, isAdminPath, menuItems, navItems, pendingNav } from './nav';
import type { Profile } from './state/session.svelte';

const person = (role: string, position: string | null = null): Profile =>
  ({ role, exec_role: position ? { position, subteam: 'design' } : null }) as unknown as Profile;

const hrefs = (p: Profile) => adminLinks(p).flatMap((s) => s.items.map((i) => i.href));

describe('currentHref', () => {
  const all = ['/admin/applications', '/admin/applications/review', '/review', '/nexus/projects'];
  it('picks the longest link at or above the path', () => {
    expect(currentHref('/admin/applications/review', all)).toBe('/admin/applications/review');
    expect(currentHref('/admin/applications/5f1c', all)).toBe('/admin/applications');
    expect(currentHref('/nexus/projects/abc', all)).toBe('/nexus/projects');
  });
  it('does not match a longer name that only shares a prefix', () => {
    expect(currentHref('/reviewers', all)).toBeNull();
  });
});

describe('the site map by role', () => {
  it('shows a VP the hiring pages they may open and nothing of the President', () => {
    const vp = person('member', 'VP');
    expect(hrefs(vp)).toEqual(['/admin/applications/review', '/applications/questions', '/onboarding/review']);
    expect(adminHome(vp)).toBe('/admin/applications/review');
  });
  it('shows a President the hiring page too', () => {
    expect(hrefs(person('admin', 'President'))).toContain('/admin/applications/hiring');
  });
  it('shows an admin the Foundry and not the system page', () => {
    const h = hrefs(person('admin'));
    expect(h).toContain('/nexus/foundry');
    expect(h).not.toContain('/admin/system');
    expect(h).not.toContain('/admin/applications/review');
  });
  it('shows a superadmin the system page', () => {
    expect(hrefs(person('superadmin'))).toContain('/admin/system');
  });
  it('shows the onboarding form in the menu of an exec role holder only', () => {
    const show = (p: Profile) => menuItems.filter((i) => i.show(p)).map((i) => i.href);
    expect(show(person('member', 'Exec'))).toContain('/onboarding');
    expect(show(person('member'))).not.toContain('/onboarding');
  });
  it('treats the new pages as staff pages', () => {
    for (const p of ['/applications/questions', '/nexus/projects/abc', '/admin/system', '/onboarding/review']) expect(isAdminPath(p)).toBe(true);
    expect(isAdminPath('/onboarding')).toBe(false);
  });
  it('offers check-in to admins and the current edition\'s volunteers only', () => {
    const show = (p: Profile) => navItems.filter((i) => i.show(p)).map((i) => i.href);
    expect(show(person('admin'))).toContain('/checkin');
    expect(show({ ...person('member'), volunteer: true } as Profile)).toContain('/checkin');
    expect(show(person('member'))).not.toContain('/checkin');
  });
  it('holds the header links an admin has on a staff page, and a member\'s elsewhere, while the session loads', () => {
    const n = common.nav;
    expect(pendingNav('/admin/system')).toEqual([n.apply, n.events, n.review, n.checkin, n.admin]);
    const admin = person('admin');
    const shown = navItems.filter((i) => i.show(admin)).map((i) => i.label);
    expect(pendingNav('/nexus/projects/abc')).toEqual([...shown, n.admin]);
    expect(pendingNav('/profile')).toEqual([n.apply, n.events]);
  });
});
