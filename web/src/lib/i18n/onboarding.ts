// Strings of Onboarding.
export const onboarding = {
  title: 'Onboarding',
  building: 'This page is being built.',
};
