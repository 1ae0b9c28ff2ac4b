// Strings of /review, the reviewer's page.
export const review = {
  title: 'Review applications',
  lede: 'Read the answers and the resume, then give each part a score. Applications with the fewest reviews come first.',
  left: (n: string, one: boolean) => (one ? 'This is the last application in your queue.' : `${n} applications are left in your queue, this one included.`),
  skip: {
    button: 'Skip for now',
    hint: 'Skipped applications come back to you after every other one.',
    failed: 'The application could not be skipped. Try again.',
  },
  applicant: {
    title: 'Applicant',
    name: 'Name',
    email: 'Email',
    university: 'University',
    program: 'Program',
    year: 'Year of study',
    experience: 'Experience',
    hackathons: 'Hackathons attended',
    notGiven: 'Not given',
    blind: 'Blind review is on: who the applicant is stays hidden.',
  },
  keys: {
    title: 'Scoring with the keyboard',
    items: [
      'Tab moves to the next score, Shift and Tab to the previous one.',
      'The arrow keys choose a score within a group; Space chooses the highlighted score.',
      'Tab past the last score to the private note, then to Submit review, and press Enter.',
    ],
    skip: 'Go to the scores',
  },
  answers: {
    title: 'Answers',
    q1: 'Question 1 (technical project)',
    q2: 'Question 2 (haiku)',
    notGiven: 'Not answered',
  },
  links: {
    title: 'Links',
    github: 'GitHub profile',
    linkedin: 'LinkedIn profile',
    website: 'Personal website',
    none: 'No links given',
    newTab: '(opens in a new tab)',
  },
  team: {
    title: 'Team',
    none: 'Applying alone',
    member: (name: string | null, email: string) => (name ? `${name} (${email})` : email),
  },
  resume: {
    title: 'Resume',
    frame: 'Resume preview',
    none: 'This applicant did not upload a resume.',
    noPreview: 'This resume cannot be shown here. Download it to read it.',
    open: 'Open the résumé',
    download: 'Download the resume',
    loading: 'Loading the preview\u2026',
  },
  form: {
    title: 'Scores',
    range: (label: string, min: number, max: number) => `${label} (${min} to ${max})`,
    labels: {
      resume_score: 'Resume',
      links_score: 'Links',
      q1_score: 'Question 1',
      q2_score: 'Question 2',
    },
    choose: {
      resume_score: 'Choose a resume score',
      links_score: 'Choose a links score',
      q1_score: 'Choose a Question 1 score',
      q2_score: 'Choose a Question 2 score',
    },
    submit: 'Submit review',
    // rubric is a score's hint: what its lowest and highest values mean, one sentence each.
    rubric: (min: number, low: string, max: number, high: string) => `${min}: ${low.replace(/[.!?]$/, '')}. ${max}: ${high.replace(/[.!?]$/, '')}.`,
    note: 'Private note',
    noteHint: 'Optional. Only superadmins read it, with the application\u2019s details. Write about the application, not the person.',
  },
  done: {
    title: 'Review submitted',
    total: (n: string, one: boolean) => `You have submitted ${n} ${one ? 'review' : 'reviews'} in total.`,
    next: 'Next application',
  },
  refused: {
    conflict: {
      title: 'You have already reviewed this application',
      body: 'Each reviewer scores an application once, and your earlier review stands. Go on to the next application.',
    },
    forbidden: {
      title: 'You cannot review this application',
      body: 'It is your own application or you are on its team, so someone else will review it.',
    },
    notFound: {
      title: 'This application can no longer be reviewed',
      body: 'It was withdrawn or changed while you were reading it. Go on to the next application.',
    },
    notCurrent: {
      title: 'The current hackathon has changed',
      body: 'Another hackathon became the current one while you were reading this application, and reviews are of the current hackathon\u2019s applications only. Your scores were not saved. Go on to the next application.',
    },
  },
  empty: {
    title: 'Nothing left to review',
    body: 'You have reviewed every application you can for now. Come back later: new applications appear here as people submit them.',
    home: 'Go to the home page',
  },
} as const;
