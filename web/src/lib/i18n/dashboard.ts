// Strings of /admin/dashboard, the superadmin's numbers on applications,
// offers and RSVPs.
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

export const dashboard = {
  title: 'Dashboard',
  lede: 'Applications, offers and RSVPs for the hackathon, as they stood when this page loaded.',
  counts: {
    title: 'Totals',
    applications: 'Applications submitted',
    applicationsHint: 'Drafts not included',
    offers: 'Offers made',
    offersHint: 'Applications whose decision is an offer',
    rsvps: 'RSVPs',
    rsvpsHint: 'Offers accepted',
    declined: 'Declined',
    declinedHint: 'Offers turned down',
  },
  conversion: {
    title: 'Conversion',
    toOffer: 'Applications to offers',
    toOfferMeaning: (offers: string, apps: string, n: number) =>
      `${offers} of ${apps} submitted ${plural(n, 'application', 'applications')} got an offer.`,
    toRsvp: 'Offers to RSVPs',
    toRsvpMeaning: (rsvps: string, offers: string, n: number) =>
      `${rsvps} of ${offers} ${plural(n, 'offer', 'offers')} ${plural(n, 'was', 'were')} accepted.`,
    none: 'Not yet: nothing to divide by.',
  },
  breakdown: {
    title: 'Where applications stand',
    caption: 'Applications by status',
    lede: 'Every application, draft or submitted, is in exactly one status.',
    status: 'Status',
    meaning: 'Meaning',
    count: 'Applications',
    share: 'Share',
    statuses: {
      draft: { label: 'Draft', meaning: 'Started, not submitted' },
      submitted: { label: 'Awaiting decision', meaning: 'Submitted, no decision yet' },
      offer: { label: 'Offer open', meaning: 'Offered, not answered, deadline ahead' },
      waitlist: { label: 'Waitlisted', meaning: 'On the waitlist' },
      reject: { label: 'Rejected', meaning: 'Not offered a place' },
      attending: { label: 'Attending', meaning: 'Accepted the offer' },
      declined: { label: 'Declined', meaning: 'Turned the offer down' },
      expired: { label: 'Offer expired', meaning: 'Not answered by the deadline' },
    },
  },
  timeline: {
    title: 'RSVPs over time',
    switchLabel: 'Count RSVPs per',
    hour: 'Hour',
    day: 'Day',
    loading: 'Loading the RSVPs\u2026',
    tableCaption: (interval: 1 | 24) => (interval === 1 ? 'RSVPs per hour' : 'RSVPs per day'),
    chartName: (interval: 1 | 24) => (interval === 1 ? 'Chart of RSVPs per hour' : 'Chart of RSVPs per day'),
    when: (interval: 1 | 24) => (interval === 1 ? 'Hour' : 'Day'),
    count: 'RSVPs',
    zone: (zone: string) => `Times are in your time zone, ${zone}.`,
    summary: (total: string, n: number, from: string, to: string, peak: string, peakCount: string) =>
      `${total} ${plural(n, 'RSVP', 'RSVPs')} from ${from} to ${to}. The busiest was ${peak}, with ${peakCount}.`,
    emptyTitle: 'No RSVPs yet',
    emptyBody: 'The chart appears here once someone accepts an offer.',
  },
  empty: {
    title: 'No applications yet',
    body: 'Counts, conversion rates and RSVPs appear here once people start applying.',
    next: 'Check the application window on the Terms page',
  },
};
