// Strings of System.
export const system = {
  title: 'System',
  building: 'This page is being built.',
};
