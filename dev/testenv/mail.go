package testenv

import (
	"bytes"
	"sync"
)

// Mail collects what the log mail driver prints for every App started by
// App, by idempotency key. Outside the local stack the audit trail keeps
// no one-time links once an email is sent, so this is where tests read
// them, as a developer reads them in the `hackdesk dev` output.
var Mail = &MailLog{texts: map[string]string{}}

// MailLog is an io.Writer that parses the log driver's messages
// ("----- email <key> -----\n<headers and body>\n-----\n").
type MailLog struct {
	mu    sync.Mutex
	buf   []byte
	texts map[string]string
}

var (
	mailStart = []byte("----- email ")
	mailHead  = []byte(" -----\n")
	mailEnd   = []byte("\n-----\n")
)

// Write takes printed messages, whole or in pieces.
func (m *MailLog) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buf = append(m.buf, p...)
	for {
		start := bytes.Index(m.buf, mailStart)
		if start < 0 {
			break
		}
		head := bytes.Index(m.buf[start:], mailHead)
		if head < 0 {
			break
		}
		key := string(m.buf[start+len(mailStart) : start+head])
		body := start + head + len(mailHead)
		end := bytes.Index(m.buf[body:], mailEnd)
		if end < 0 {
			break
		}
		m.texts[key] = string(m.buf[body : body+end])
		m.buf = m.buf[body+end+len(mailEnd):]
	}
	return len(p), nil
}

// Text is the printed message (headers and text body) of the email with
// the given idempotency key, if one was printed.
func (m *MailLog) Text(key string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.texts[key]
	return t, ok
}
