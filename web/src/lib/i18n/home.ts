// Strings of the home page: what the club offers and "Your next step".
export const home = {
  title: 'Home',
  heading: 'Hackathons, events and membership, in one place',
  lede: 'Apply to the club\u2019s hackathon, join the club for the term and follow each step from your account.',
  anonymousCta: 'Create an account to apply and to join the club. It takes a minute.',
  signUp: 'Sign up',
  signIn: 'Sign in',
  noticeTitle: 'Please note',
  // The notices a redirect may ask for (?notice=<code>), by code.
  notices: {
    formClosed: {
      onboarding: 'The onboarding form is not open right now.',
      returning: 'The returning-exec form is not open right now.',
    },
  },
  welcome: (name: string) => `Welcome back, ${name}`,
  nextHeading: 'Your next step',
  nextLoading: 'Finding your next step\u2026',
  allDone: 'You\u2019re all set for now. We\u2019ll email you when there is something to do.',
  steps: {
    startApplication: {
      title: 'Apply to the hackathon',
      body: 'Your answers are saved as you go, so you can finish on any device.',
      link: 'Start your application',
    },
    continueApplication: {
      title: 'Finish your application',
      body: 'Your draft is saved. Pick up where you left off, then submit it.',
      link: 'Continue your application',
    },
    applicationSubmitted: {
      title: 'Your application is submitted',
      body: 'See what happens next, and the decision once it is made.',
      link: 'View your application status',
    },
    applicationsOpen: {
      title: 'Apply to the hackathon',
    },
    answerOffer: {
      title: 'You\u2019ve been offered a place',
      titleAt: (name: string) => `You\u2019ve been offered a place at ${name}`,
      body: 'Tell us whether you\u2019ll attend. If you don\u2019t answer in time, the place goes to someone else.',
      link: (deadline: string) => `Answer your offer by ${deadline}`,
    },
    joinMembership: {
      title: (term: string) => `Join the club for ${term}`,
      body: 'Members come to the club\u2019s events all term. Join, then pay your dues to an executive.',
      link: (term: string) => `Join for ${term}`,
    },
    payDues: {
      title: (term: string) => `Pay your dues for ${term}`,
      body: (amount: string) => `Your dues are ${amount}. Show your payment QR code to an executive to pay.`,
      link: 'Pay your dues',
    },
    review: {
      title: 'Review applications',
      body: 'Score the next application waiting in the queue.',
      link: 'Review applications',
    },
    hiring: {
      title: 'Run hiring',
      body: 'Send offers and rejections, record the answers and finalize the new team.',
      link: 'Open hiring',
    },
    selections: {
      title: 'Review your subteam\u2019s applicants',
      body: 'Move the selections for your positions through review.',
      link: 'Open selections',
    },
    onboarding: {
      title: (term: string) => `Fill in your onboarding form for ${term}`,
      // when it closes is the step's closing line, as for the application
      body: 'Tell the club how you will appear on its pages and channels.',
      link: 'Fill in the onboarding form',
    },
  },
  offersHeading: 'What the club offers',
  features: [
    {
      title: 'Hackathon applications',
      body: 'Apply in a few short steps, save as you go, and answer your offer when it arrives.',
    },
    {
      title: 'Events',
      body: 'Workshops, talks and socials through the term, open to every member of the club.',
    },
    {
      title: 'Membership',
      body: 'Join for the term, pay your dues in person with a QR code, and see your status at any time.',
    },
  ],
} as const;
