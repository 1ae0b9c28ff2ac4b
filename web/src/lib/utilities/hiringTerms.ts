// The term a hiring page shows (Selections, Hiring, the onboarding
// review) and whether it offers a choice, from the terms the server lists
// (the hiring term, the one that starts last, first).
export type TermSummary = {
  id: string;
  name: string;
  active: boolean;
  hiring: boolean;
  positions: number;
  onboarding: number;
  returning: number;
};

// busy says whether a term has anything for the hiring pages: positions
// or exec form submissions.
export function busy(t: TermSummary): boolean {
  return t.positions > 0 || t.onboarding > 0 || t.returning > 0;
}

// offersChoice: more than one term has positions or submissions.
export function offersChoice(terms: readonly TermSummary[]): boolean {
  return terms.filter(busy).length > 1;
}

// defaultTerm is the term a page shows when its address names none: the
// hiring term when it has what the page shows (has), else the latest term
// that has, else the hiring term; null without terms. A VP whose
// positions are in the active term, while the next term is being set up,
// lands on the active term.
export function defaultTerm<T extends TermSummary>(terms: readonly T[], has: (t: T) => boolean): T | null {
  const hiring = terms.find((t) => t.hiring) ?? terms[0] ?? null;
  if (!hiring || has(hiring)) return hiring;
  return terms.find(has) ?? hiring;
}

// chosenTerm is the term the address names (id), when listed, else the
// default.
export function chosenTerm<T extends TermSummary>(terms: readonly T[], id: string, has: (t: T) => boolean): T | null {
  return terms.find((t) => t.id === id) ?? defaultTerm(terms, has);
}

export type TermWords = { hiring: string; active: string; both: string };

// termLabel names a term with what it is: "2026-2027 (hiring term)".
export function termLabel(t: Pick<TermSummary, 'name' | 'active' | 'hiring'>, w: TermWords): string {
  const what = t.active && t.hiring ? w.both : t.hiring ? w.hiring : t.active ? w.active : '';
  return what ? `${t.name} (${what})` : t.name;
}
