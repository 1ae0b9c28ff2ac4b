// Strings of Question bank.
export const questions = {
  title: 'Question bank',
  building: 'This page is being built.',
};
