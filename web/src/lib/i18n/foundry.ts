// Strings of Foundry.
export const foundry = {
  title: 'Foundry',
  building: 'This page is being built.',
};
