// Strings of the term a hiring page shows (Selections, Hiring, the
// onboarding pages) and its choice.
export const termChoice = {
  label: 'Term',
  showing: 'Term:',
  words: { hiring: 'hiring term', active: 'active term', both: 'active and hiring term' },
};
