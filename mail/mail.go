// Package mail renders and sends hackdesk's emails. A Sender delivers one
// rendered message; the SendEmail workflow records every message in the
// database before a Sender sees it, so drivers need not be idempotent.
package mail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"hackdesk/config"
)

// Message is one rendered email. Key is its idempotency key; drivers use it
// as the Message-ID so a receiving system can spot a duplicate.
type Message struct {
	Key     string
	From    string
	To      string
	Subject string
	Text    string
	HTML    string
}

// Sender delivers a message and returns the provider's id for it.
type Sender interface {
	Send(ctx context.Context, m Message) (providerID string, err error)
}

// PermanentError marks a failure that retrying cannot fix (a rejected
// address, bad credentials). Other errors are treated as transient.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return "permanent: " + e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// IsPermanent reports whether err is a PermanentError.
func IsPermanent(err error) bool {
	var p *PermanentError
	return errors.As(err, &p)
}

// NewSender builds the driver named by cfg.MailDriver. The log driver
// prints to out.
func NewSender(ctx context.Context, cfg config.Config, out io.Writer) (Sender, error) {
	switch cfg.MailDriver {
	case "", "log":
		return NewLogSender(out), nil
	case "smtp":
		return NewSMTPSender(cfg.SMTPURL)
	case "ses":
		return NewSESSender(ctx, cfg.SESRegion)
	}
	return nil, fmt.Errorf("unknown MAIL_DRIVER %q", cfg.MailDriver)
}

// LogSender is the development driver: it prints each message (the
// database row is the record) and never fails.
type LogSender struct {
	out io.Writer
}

// NewLogSender prints messages to out (nil discards them).
func NewLogSender(out io.Writer) *LogSender {
	if out == nil {
		out = io.Discard
	}
	return &LogSender{out: out}
}

// Send prints m and returns a provider id derived from its key.
func (s *LogSender) Send(ctx context.Context, m Message) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "----- email %s -----\nFrom: %s\nTo: %s\nSubject: %s\n\n%s\n-----\n", m.Key, m.From, m.To, m.Subject, m.Text)
	if _, err := io.WriteString(s.out, b.String()); err != nil {
		return "", err
	}
	return "log:" + m.Key, nil
}
