// Strings of /admin/emails, the audit of every email the service sent
// (and, in the local stack, its mail catcher).
export const emails = {
  title: 'Emails',
  lede: 'Every email the service sent or tried to send, newest first. Open one to read it.',
  filters: {
    title: 'Filter emails',
    to: 'Recipient',
    toHint: 'The whole email address, for example ada@example.com',
    kind: 'Kind',
    kindHint: 'The template, for example confirm, reset, notice or broadcast',
    pageSize: 'Emails per page',
    apply: 'Apply filters',
    clear: 'Clear filters',
  },
  table: {
    caption: 'Emails, newest first',
    when: 'Created',
    to: 'Recipient',
    kind: 'Kind',
    subject: 'Subject',
    status: 'Status',
    open: (subject: string) => `Open email: ${subject || '(no subject)'}`,
  },
  status: { pending: 'Pending', sending: 'Sending', sent: 'Sent', failed: 'Failed' } as Record<string, string>,
  count: (n: string, one: boolean) => `${n} ${one ? 'email' : 'emails'}`,
  empty: {
    title: 'No emails yet',
    body: 'Emails appear here as the service sends them: sign-up confirmations, password resets, notices and broadcasts.',
  },
  emptyFiltered: {
    title: 'No emails match these filters',
    body: 'Check the recipient’s address is whole and exact, or clear the filters to see every email.',
  },
  detail: {
    to: 'To',
    kind: 'Kind',
    status: 'Status',
    when: 'Created',
    key: 'Idempotency key',
    body: 'Text body',
    redacted:
      'This email carried a one-time link (a confirmation or password reset), so its body is not kept and is never shown here.',
    close: 'Close',
  },
};
