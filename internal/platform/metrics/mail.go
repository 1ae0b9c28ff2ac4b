package metrics

import (
	"context"

	"hackdesk/internal/platform/mail"
)

// Email outcomes.
const (
	EmailSent   = "sent"
	EmailFailed = "failed" // permanent: the email is given up
	EmailError  = "error"  // transient: the activity retries it
)

// CountEmails returns a Sender that counts what s answers under driver
// (MAIL_DRIVER). On a nil Metrics it is s.
func (m *Metrics) CountEmails(s mail.Sender, driver string) mail.Sender {
	if m == nil || s == nil {
		return s
	}
	if driver == "" {
		driver = "log"
	}
	for _, o := range []string{EmailSent, EmailFailed, EmailError} {
		m.emails.WithLabelValues(driver, o)
	}
	return countingSender{next: s, m: m, driver: driver}
}

type countingSender struct {
	next   mail.Sender
	m      *Metrics
	driver string
}

func (c countingSender) Send(ctx context.Context, msg mail.Message) (string, error) {
	id, err := c.next.Send(ctx, msg)
	switch {
	case err == nil:
		c.m.Email(c.driver, EmailSent)
	case mail.IsPermanent(err):
		c.m.Email(c.driver, EmailFailed)
	default:
		c.m.Email(c.driver, EmailError)
	}
	return id, err
}
