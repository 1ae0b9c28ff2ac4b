// Strings of Onboarding submissions.
export const onboardingReview = {
  title: 'Onboarding submissions',
  building: 'This page is being built.',
};
