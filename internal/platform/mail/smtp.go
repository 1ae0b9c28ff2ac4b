package mail

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"net/url"
	"strconv"

	gomail "github.com/wneessen/go-mail"
)

// SMTPSender sends through an SMTP relay configured by a URL:
//
//	smtp://user:pass@host:587   STARTTLS required
//	smtps://user:pass@host:465  implicit TLS
//	smtp+insecure://host:1025   no TLS (local mail catchers only)
type SMTPSender struct {
	opts []gomail.Option
	host string
}

// NewSMTPSender parses rawURL; it does not connect.
func NewSMTPSender(rawURL string) (*SMTPSender, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return nil, errors.New("SMTP_URL must look like smtp://user:pass@host:port")
	}
	opts := []gomail.Option{}
	port := 0
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, errors.New("SMTP_URL has a bad port")
		}
	}
	switch u.Scheme {
	case "smtp":
		if port == 0 {
			port = 587
		}
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case "smtps":
		if port == 0 {
			port = 465
		}
		opts = append(opts, gomail.WithSSL())
	case "smtp+insecure":
		if port == 0 {
			port = 25
		}
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		return nil, fmt.Errorf("SMTP_URL scheme must be smtp, smtps or smtp+insecure")
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts,
			gomail.WithSMTPAuth(gomail.SMTPAuthPlain),
			gomail.WithUsername(u.User.Username()),
			gomail.WithPassword(pass))
	}
	return &SMTPSender{opts: opts, host: u.Hostname()}, nil
}

// Send delivers m in one SMTP session. 5xx replies are permanent errors.
func (s *SMTPSender) Send(ctx context.Context, m Message) (string, error) {
	msg := gomail.NewMsg()
	if err := msg.From(m.From); err != nil {
		return "", &PermanentError{fmt.Errorf("from address: %w", err)}
	}
	if err := msg.To(m.To); err != nil {
		return "", &PermanentError{fmt.Errorf("to address: %w", err)}
	}
	if err := CheckHeaders(m.Headers); err != nil {
		return "", err
	}
	msg.Subject(m.Subject)
	// Extra fields are sent as given: List-Unsubscribe's <URL> must not be
	// encoded as words.
	for _, name := range sortedHeaders(m.Headers) {
		msg.SetGenHeaderPreformatted(gomail.Header(name), m.Headers[name])
	}
	msgID := messageID(m.Key)
	msg.SetMessageIDWithValue(msgID)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	client, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return "", &PermanentError{err}
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		var tpErr *textproto.Error
		var sendErr *gomail.SendError // wraps the server's reply without Unwrap
		var netErr net.Error
		switch {
		case errors.As(err, &tpErr) && tpErr.Code >= 500,
			errors.As(err, &sendErr) && sendErr.ErrorCode() >= 500:
			return "", &PermanentError{err}
		case errors.As(err, &netErr):
			return "", err
		}
		return "", err
	}
	return msgID, nil
}

// messageID turns an idempotency key into a stable Message-ID local part.
func messageID(key string) string {
	b := make([]byte, 0, len(key))
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' {
			b = append(b, c)
		} else {
			b = append(b, '-')
		}
	}
	return string(b) + "@hackdesk"
}
