package mail

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRender(t *testing.T) {
	t.Parallel()
	t.Run("OKNotice", func(t *testing.T) {
		got, err := Render("notice", map[string]string{"subject": "  Team update  ", "body": "Kick-off is at noon."})
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		want := Rendered{Subject: "Team update", Text: "Kick-off is at noon.\n\n--\n" + DataNote + "\n",
			HTML: "<p>Kick-off is at noon.</p><p style=\"font-size: small\">" + DataNote + "</p>"}
		if got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})

	for _, kind := range []string{"confirm", "reset"} {
		t.Run("OK"+strings.ToUpper(kind[:1])+kind[1:], func(t *testing.T) {
			link := "https://hackdesk.example/" + kind + "?t=abc"
			got, err := Render(kind, map[string]string{"name": "Ada", "link": link})
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			wantSubject := map[string]string{"confirm": "Confirm your hackdesk account", "reset": "Reset your hackdesk password"}[kind]
			if got.Subject != wantSubject {
				t.Errorf("subject: got %q, want %q", got.Subject, wantSubject)
			}
			if !strings.HasPrefix(got.Text, "Hi Ada,\n") {
				t.Errorf("text: got %q, want it to start with %q", got.Text, "Hi Ada,\n")
			}
			if !strings.Contains(got.Text, "\n"+link+"\n") {
				t.Errorf("text: got %q, want it to contain the link %q on its own line", got.Text, link)
			}
			if !strings.HasPrefix(got.HTML, "<p>Hi Ada,</p>") {
				t.Errorf("html: got %q, want it to start with %q", got.HTML, "<p>Hi Ada,</p>")
			}
			wantHref := `<a href="https://hackdesk.example/` + kind + `?t=abc">`
			if !strings.Contains(got.HTML, wantHref) {
				t.Errorf("html: got %q, want it to contain %q", got.HTML, wantHref)
			}
		})
	}

	t.Run("EscapesHTML", func(t *testing.T) {
		body := `<script>alert("x")</script>`
		got, err := Render("notice", map[string]string{"subject": "s", "body": body})
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		if strings.Contains(got.HTML, "<script>") {
			t.Errorf("html: got %q, want <script> escaped", got.HTML)
		}
		if !strings.Contains(got.HTML, "&lt;script&gt;") {
			t.Errorf("html: got %q, want it to contain %q", got.HTML, "&lt;script&gt;")
		}
		// The plain-text part is not HTML and keeps the data as is.
		if want := body + "\n\n--\n" + DataNote + "\n"; got.Text != want {
			t.Errorf("text: got %q, want %q", got.Text, want)
		}
	})

	// Every email names where a person manages their data.
	t.Run("OKDataNoteEverywhere", func(t *testing.T) {
		for kind, tpl := range templates {
			data := map[string]string{}
			for _, k := range tpl.needs {
				data[k] = "x"
			}
			data["unsubscribe"], data["chat"] = "https://u.example/x", "https://chat.example/x"
			got, err := Render(kind, data)
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			if !strings.Contains(got.Text, DataNote) || !strings.Contains(got.HTML, DataNote) {
				t.Errorf("%s does not name where to manage one's data", kind)
			}
		}
	})

	t.Run("ErrMissingKey", func(t *testing.T) {
		for _, tc := range []struct {
			kind    string
			data    map[string]string
			missing string
		}{
			{"notice", map[string]string{"subject": "s"}, "body"},
			{"confirm", map[string]string{"name": "Ada"}, "link"},
			{"reset", map[string]string{"link": "https://x", "name": "   "}, "name"},
		} {
			got, err := Render(tc.kind, tc.data)
			if err == nil {
				t.Errorf("Render(%q, %v): got %+v, want an error", tc.kind, tc.data, got)
				continue
			}
			if !strings.Contains(err.Error(), strconv.Quote(tc.missing)) {
				t.Errorf("Render(%q): error %q does not name %q", tc.kind, err, tc.missing)
			}
		}
	})

	t.Run("ErrUnknownKind", func(t *testing.T) {
		got, err := Render("welcome", map[string]string{"name": "Ada"})
		if err == nil {
			t.Fatalf("got %+v, want an error", got)
		}
		if !strings.Contains(err.Error(), `"welcome"`) {
			t.Errorf("error %q does not name the kind", err)
		}
	})
}

func TestLogSender(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		var buf bytes.Buffer
		s := NewLogSender(&buf)
		m := Message{Key: "k-1", From: "desk@example.org", To: "ada@example.org", Subject: "Hello", Text: "Body text"}
		id, err := s.Send(context.Background(), m)
		if err != nil {
			t.Fatalf("Send: %v", err)
		}
		if want := "log:k-1"; id != want {
			t.Errorf("provider id: got %q, want %q", id, want)
		}
		out := buf.String()
		for _, want := range []string{"From: desk@example.org\n", "To: ada@example.org\n", "Subject: Hello\n", "\nBody text\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("output %q does not contain %q", out, want)
			}
		}
	})

	t.Run("OKNilWriter", func(t *testing.T) {
		id, err := NewLogSender(nil).Send(context.Background(), Message{Key: "k"})
		if err != nil || id != "log:k" {
			t.Errorf("got (%q, %v), want (%q, nil)", id, err, "log:k")
		}
	})

	t.Run("ErrWrite", func(t *testing.T) {
		_, err := NewLogSender(failWriter{}).Send(context.Background(), Message{Key: "k"})
		if err == nil {
			t.Fatal("got nil error, want the writer's error")
		}
	})
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestNewSMTPSender(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		url      string
		wantHost string
	}{
		{"OKSubmission", "smtp://user:pass@mail.example.org:587", "mail.example.org"},
		{"OKImplicitTLSDefaultPort", "smtps://mail.example.org", "mail.example.org"},
		{"OKInsecure", "smtp+insecure://localhost:1025", "localhost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSMTPSender(tc.url)
			if err != nil {
				t.Fatalf("NewSMTPSender(%q): %v", tc.url, err)
			}
			if s.host != tc.wantHost {
				t.Errorf("host: got %q, want %q", s.host, tc.wantHost)
			}
			if len(s.opts) == 0 {
				t.Error("got no client options")
			}
		})
	}

	for _, tc := range []struct {
		name    string
		url     string
		wantErr string
	}{
		{"ErrBadScheme", "http://mail.example.org:25", "scheme"},
		{"ErrMissingHost", "smtp://", "SMTP_URL must look like"},
		{"ErrMissingHostPathOnly", "mail.example.org", "SMTP_URL must look like"},
		{"ErrBadPort", "smtp://mail.example.org:99999999999999999999", "bad port"},
		{"ErrPortOutOfRange", "smtp://mail.example.org:99999", "bad port"},
		{"ErrBadPortSyntax", "smtp://mail.example.org:abc", "SMTP_URL must look like"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSMTPSender(tc.url)
			if err == nil {
				t.Fatalf("NewSMTPSender(%q): got %+v, want an error", tc.url, s)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not contain %q", err, tc.wantErr)
			}
		})
	}
}

// smtpSession is what the fake server saw in one connection.
type smtpSession struct {
	mailFrom string
	rcpts    []string
	data     string
}

// fakeSMTP is a minimal plain-text SMTP server: no STARTTLS, no AUTH.
type fakeSMTP struct {
	ln       net.Listener
	rcptResp string // reply to RCPT TO; "250 OK" when empty
	sessions chan smtpSession
}

func startFakeSMTP(t *testing.T, rcptResp string) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	f := &fakeSMTP{ln: ln, rcptResp: rcptResp, sessions: make(chan smtpSession, 4)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				f.serve(conn)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return f
}

func (f *fakeSMTP) port() int { return f.ln.Addr().(*net.TCPAddr).Port }

func (f *fakeSMTP) serve(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(conn)
	reply := func(s string) bool {
		_, err := conn.Write([]byte(s + "\r\n"))
		return err == nil
	}
	var sess smtpSession
	defer func() { f.sessions <- sess }()
	if !reply("220 fake.test ESMTP ready") {
		return
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(line)
		var ok bool
		switch {
		case strings.HasPrefix(verb, "EHLO"):
			ok = reply("250-fake.test greets you") && reply("250 8BITMIME")
		case strings.HasPrefix(verb, "HELO"):
			ok = reply("250 fake.test")
		case strings.HasPrefix(verb, "MAIL FROM:"):
			sess.mailFrom = angleAddr(line[len("MAIL FROM:"):])
			ok = reply("250 OK")
		case strings.HasPrefix(verb, "RCPT TO:"):
			sess.rcpts = append(sess.rcpts, angleAddr(line[len("RCPT TO:"):]))
			resp := f.rcptResp
			if resp == "" {
				resp = "250 OK"
			}
			ok = reply(resp)
		case verb == "DATA":
			if !reply("354 end data with <CR><LF>.<CR><LF>") {
				return
			}
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				l = strings.TrimRight(l, "\r\n")
				if l == "." {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
				data.WriteString("\n")
			}
			sess.data = data.String()
			ok = reply("250 OK queued")
		case verb == "NOOP", verb == "RSET":
			ok = reply("250 OK")
		case verb == "QUIT":
			reply("221 bye")
			return
		default:
			ok = reply("502 command not implemented")
		}
		if !ok {
			return
		}
	}
}

// angleAddr returns the address inside <...> of a MAIL FROM or RCPT TO
// argument, ignoring any parameters after it.
func angleAddr(arg string) string {
	arg = strings.TrimSpace(arg)
	if i := strings.Index(arg, ">"); strings.HasPrefix(arg, "<") && i > 0 {
		return arg[1:i]
	}
	return arg
}

// session waits for the server to finish one connection.
func (f *fakeSMTP) session(t *testing.T) smtpSession {
	t.Helper()
	select {
	case s := <-f.sessions:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("fake SMTP server saw no finished session")
		return smtpSession{}
	}
}

func newInsecureSender(t *testing.T, port int) *SMTPSender {
	t.Helper()
	s, err := NewSMTPSender("smtp+insecure://127.0.0.1:" + strconv.Itoa(port))
	if err != nil {
		t.Fatalf("NewSMTPSender: %v", err)
	}
	return s
}

func TestSMTPSenderSend(t *testing.T) {
	t.Parallel()
	msg := Message{
		Key:     "confirm/42:ada",
		From:    "desk@hackdesk.test",
		To:      "ada@example.org",
		Subject: "Confirm your hackdesk account",
		Text:    "Hi Ada, open the link to confirm.",
		HTML:    "<p>Hi Ada, open <a href=\"https://x.test/c\">the link</a>.</p>",
	}

	t.Run("OK", func(t *testing.T) {
		srv := startFakeSMTP(t, "")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		id, err := newInsecureSender(t, srv.port()).Send(ctx, msg)
		if err != nil {
			t.Fatalf("Send: %v", err)
		}
		wantID := "confirm-42-ada@hackdesk"
		if id != wantID {
			t.Errorf("provider id: got %q, want %q", id, wantID)
		}
		sess := srv.session(t)
		if sess.mailFrom != msg.From {
			t.Errorf("MAIL FROM: got %q, want %q", sess.mailFrom, msg.From)
		}
		if len(sess.rcpts) != 1 || sess.rcpts[0] != msg.To {
			t.Errorf("RCPT TO: got %q, want [%q]", sess.rcpts, msg.To)
		}
		for _, want := range []string{
			"Subject: " + msg.Subject + "\n",
			"Message-ID: <" + wantID + ">\n",
			"Content-Type: text/plain; charset=UTF-8\n\n" + msg.Text + "\n",
			"Content-Type: text/html; charset=UTF-8\n",
		} {
			if !strings.Contains(sess.data, want) {
				t.Errorf("DATA does not contain %q; got:\n%s", want, sess.data)
			}
		}
	})

	t.Run("ErrRejectedRecipientIsPermanent", func(t *testing.T) {
		srv := startFakeSMTP(t, "550 no such user")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		id, err := newInsecureSender(t, srv.port()).Send(ctx, msg)
		if err == nil {
			t.Fatalf("Send: got id %q, want an error", id)
		}
		if !IsPermanent(err) {
			t.Errorf("IsPermanent(%v): got false, want true", err)
		}
		if !strings.Contains(err.Error(), "550") {
			t.Errorf("error %q does not carry the server's reply", err)
		}
		sess := srv.session(t)
		if len(sess.rcpts) != 1 || sess.rcpts[0] != msg.To {
			t.Errorf("RCPT TO: got %q, want [%q]", sess.rcpts, msg.To)
		}
		if sess.data != "" {
			t.Errorf("got DATA %q after a rejected recipient, want none", sess.data)
		}
	})

	t.Run("ErrTemporaryRecipientIsTransient", func(t *testing.T) {
		srv := startFakeSMTP(t, "450 mailbox busy")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := newInsecureSender(t, srv.port()).Send(ctx, msg)
		if err == nil {
			t.Fatal("Send: got nil error, want one")
		}
		if IsPermanent(err) {
			t.Errorf("IsPermanent(%v): got true, want false", err)
		}
		srv.session(t)
	})

	t.Run("ErrConnectionRefusedIsTransient", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		id, err := newInsecureSender(t, port).Send(ctx, msg)
		if err == nil {
			t.Fatalf("Send: got id %q, want an error", id)
		}
		if IsPermanent(err) {
			t.Errorf("IsPermanent(%v): got true, want false", err)
		}
	})

	t.Run("ErrBadRecipientAddressIsPermanent", func(t *testing.T) {
		bad := msg
		bad.To = "not an address"
		_, err := newInsecureSender(t, 1).Send(context.Background(), bad)
		if err == nil {
			t.Fatal("Send: got nil error, want one")
		}
		if !IsPermanent(err) {
			t.Errorf("IsPermanent(%v): got false, want true", err)
		}
	})
}

func TestMessageID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, key, want string }{
		{"OKPlain", "abc-1.2", "abc-1.2@hackdesk"},
		{"OKReplacesOthers", "a/b c:d@e", "a-b-c-d-e@hackdesk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := messageID(tc.key); got != tc.want {
				t.Errorf("messageID(%q): got %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}
