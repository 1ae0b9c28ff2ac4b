// Package mail renders and sends hackdesk's emails. A Sender delivers one
// rendered message; the SendEmail workflow records every message in the
// database before a Sender sees it, so drivers need not be idempotent.
package mail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"hackdesk/internal/platform/config"
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
	// Headers are extra header fields (List-Unsubscribe on broadcasts),
	// sent as given; CheckHeaders says which are accepted.
	Headers map[string]string
}

// CheckHeaders refuses extra header fields a driver must not send: a name
// that is not a plain field name, one the drivers set themselves, or a
// value that could start another field (CR or LF). The drivers call it
// before sending; its error is permanent.
func CheckHeaders(h map[string]string) error {
	for name, value := range h {
		if name == "" {
			return &PermanentError{errors.New("empty header name")}
		}
		for i := 0; i < len(name); i++ {
			if c := name[i]; c <= ' ' || c >= 0x7f || c == ':' {
				return &PermanentError{fmt.Errorf("bad header name %q", name)}
			}
		}
		switch strings.ToLower(name) {
		case "from", "to", "cc", "bcc", "subject", "message-id", "date", "mime-version", "content-type", "content-transfer-encoding":
			return &PermanentError{fmt.Errorf("header %s is set by the driver", name)}
		}
		if strings.ContainsAny(value, "\r\n") {
			return &PermanentError{fmt.Errorf("header %s has a line break", name)}
		}
	}
	return nil
}

// sortedHeaders returns h's names in order, so every driver writes them
// the same way.
func sortedHeaders(h map[string]string) []string {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// WithHeaders returns a Sender that adds headers to every message it
// passes to s (the unsubscribe headers of one broadcast recipient).
func WithHeaders(s Sender, headers map[string]string) Sender {
	return headerSender{s, headers}
}

type headerSender struct {
	next    Sender
	headers map[string]string
}

func (h headerSender) Send(ctx context.Context, m Message) (string, error) {
	merged := make(map[string]string, len(m.Headers)+len(h.headers))
	for k, v := range m.Headers {
		merged[k] = v
	}
	for k, v := range h.headers {
		merged[k] = v
	}
	m.Headers = merged
	return h.next.Send(ctx, m)
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

// Send prints m (its extra headers after the subject) and returns a
// provider id derived from its key.
func (s *LogSender) Send(ctx context.Context, m Message) (string, error) {
	if err := CheckHeaders(m.Headers); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "----- email %s -----\nFrom: %s\nTo: %s\nSubject: %s\n", m.Key, m.From, m.To, m.Subject)
	for _, name := range sortedHeaders(m.Headers) {
		fmt.Fprintf(&b, "%s: %s\n", name, m.Headers[name])
	}
	fmt.Fprintf(&b, "\n%s\n-----\n", m.Text)
	if _, err := io.WriteString(s.out, b.String()); err != nil {
		return "", err
	}
	return "log:" + m.Key, nil
}
