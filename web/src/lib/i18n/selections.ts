// Strings of Selections.
export const selections = {
  title: 'Selections',
  building: 'This page is being built.',
};
