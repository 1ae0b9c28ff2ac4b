// Strings of Projects.
export const projects = {
  title: 'Projects',
  building: 'This page is being built.',
};
