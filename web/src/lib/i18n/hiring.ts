// Strings of Hiring.
export const hiring = {
  title: 'Hiring',
  building: 'This page is being built.',
};
