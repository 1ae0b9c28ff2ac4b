// Strings of /apply/submitted and /application.
export const application = {
  loadFailed: 'Your application could not be loaded.',
  none: {
    title: 'No Application Found',
    body: 'You have not started an application to the hackathon yet.',
    start: 'Start your application',
  },
  draft: {
    title: 'Your application is not submitted yet',
    body: 'Your answers are saved. Finish the remaining steps and submit your application before the deadline.',
    continue: 'Continue your application',
  },
  submitted: {
    title: 'Application submitted',
    when: (date: string) => `Submitted on ${date}`,
    nextTitle: 'What happens next',
    next: [
      'Our reviewers read every application. This usually takes a few weeks after applications close.',
      'We will email you when there is a decision, and it will show on this page.',
      'If we offer you a place, come back here to tell us whether you will attend before the RSVP deadline.',
    ],
    view: 'View your application',
  },
  mine: {
    title: 'Your application',
    lede: 'This is what you sent. A submitted application cannot be changed.',
    status: 'Status',
    submittedOn: (date: string) => `Submitted on ${date}`,
    follow: 'See the decision and RSVP',
  },
  decision: {
    title: 'Decision',
    offer: {
      title: 'You have a place at the hackathon',
      body: 'Congratulations! We loved your application and would be delighted to see you there.',
    },
    waitlist: {
      title: 'You are on the waitlist',
      body: 'The hackathon is full for now, but places often open up. We will email you as soon as one does.',
    },
    reject: {
      title: 'We could not offer you a place this time',
      body: 'Thank you for applying. We had many more applications than places, and this was a hard decision. We hope to see you at a future event.',
    },
  },
  rsvp: {
    title: 'RSVP',
    legend: 'Will you attend?',
    yes: 'Yes',
    no: 'No',
    send: 'Send RSVP',
    deadline: (when: string, zone: string) => `Reply by ${when} (${zone} time). You can change your answer until then.`,
    closed: (when: string, zone: string) => `RSVPs closed on ${when} (${zone} time).`,
    closedNoDate: 'RSVPs are closed.',
    choose: 'Choose Yes if you will attend, or No if you cannot',
    current: {
      attending: 'Your answer: you will attend.',
      declined: 'Your answer: you cannot attend.',
      expired: 'The RSVP deadline passed without an answer.',
    },
    none: 'You have not answered yet.',
    saved: {
      attending: 'Thank you. We have recorded that you will attend. See you there!',
      declined: 'Thank you for letting us know. We have recorded that you cannot attend.',
    },
  },
} as const;
