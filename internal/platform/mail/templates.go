package mail

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
)

// Rendered is a template's output.
type Rendered struct {
	Subject string
	Text    string
	HTML    string
	// Secret is true for kinds whose body holds a secret (a link with a
	// one-time token): see RedactedText.
	Secret bool
}

type template struct {
	subject *texttemplate.Template
	text    *texttemplate.Template
	html    *htmltemplate.Template
	needs   []string
	secret  bool
}

// DataNote ends every email: where a person sees, downloads or deletes
// what the club keeps about them (docs/privacy.md).
const DataNote = "Your data: see, download or delete what the club keeps about you on your profile page."

// withDataNote adds DataNote to a template's text (in its footer, after
// "--", or as one) and HTML.
func withDataNote(text, html string) (string, string) {
	if head, foot, ok := strings.Cut(text, "\n--\n"); ok {
		text = head + "\n--\n" + DataNote + "\n" + foot
	} else {
		text += "\n--\n" + DataNote + "\n"
	}
	return text, html + `<p style="font-size: small">` + DataNote + `</p>`
}

func newTemplate(name, subject, text, html string, needs ...string) template {
	text, html = withDataNote(text, html)
	return template{
		subject: texttemplate.Must(texttemplate.New(name + ".subject").Option("missingkey=error").Parse(subject)),
		text:    texttemplate.Must(texttemplate.New(name + ".text").Option("missingkey=error").Parse(text)),
		html:    htmltemplate.Must(htmltemplate.New(name + ".html").Option("missingkey=error").Parse(html)),
		needs:   needs,
	}
}

// withSecret marks a template whose body carries a secret.
func (t template) withSecret() template {
	t.secret = true
	return t
}

// RedactedText and RedactedHTML replace the bodies of a secret-bearing
// email in the audit trail once it has been sent, and stand in for them in
// the admin list before then: whoever can read the trail (a superadmin, a
// backup) must not be able to use the link. Only the local stack, where
// the list is the developer's mail catcher, keeps and shows them.
const (
	RedactedText = "[Redacted: this email carried a one-time link. Its body is not kept once sent and never shown.]\n"
	RedactedHTML = "<p>[Redacted: this email carried a one-time link. Its body is not kept once sent and never shown.]</p>"
)

// templates are the kinds of email the service sends. Data keys each needs
// are listed so a bad call fails before anything is recorded.
var templates = map[string]template{
	"notice": newTemplate("notice",
		`{{.subject}}`,
		"{{.body}}\n",
		`<p>{{.body}}</p>`,
		"subject", "body"),
	"confirm": newTemplate("confirm",
		`Confirm your hackdesk account`,
		"Hi {{.name}},\n\nConfirm your email address by opening this link (valid for 24 hours):\n\n{{.link}}\n\nIf you did not sign up, ignore this email.\n",
		`<p>Hi {{.name}},</p><p>Confirm your email address by opening <a href="{{.link}}">this link</a> (valid for 24 hours).</p><p>If you did not sign up, ignore this email.</p>`,
		"name", "link").withSecret(),
	"reset": newTemplate("reset",
		`Reset your hackdesk password`,
		"Hi {{.name}},\n\nSomeone asked to reset the password of this account. Open this link within 30 minutes to choose a new one:\n\n{{.link}}\n\nThe link works once. If it was not you, ignore this email; your password stays as it is.\n",
		`<p>Hi {{.name}},</p><p>Someone asked to reset the password of this account. Open <a href="{{.link}}">this link</a> within 30 minutes to choose a new one.</p><p>The link works once. If it was not you, ignore this email; your password stays as it is.</p>`,
		"name", "link").withSecret(),
	// Sent instead of a confirmation when someone signs up with an email
	// that has an account, so the sign-up answer does not tell the two
	// apart. It carries no token.
	"account_exists": newTemplate("account_exists",
		`You already have a hackdesk account`,
		"Hi {{.name}},\n\nSomeone, maybe you, tried to create a hackdesk account with this email address. You already have one.\n\nSign in: {{.login}}\nForgot your password? Ask for a new one: {{.reset}}\n\nIf it was not you, ignore this email; nothing has changed.\n",
		`<p>Hi {{.name}},</p><p>Someone, maybe you, tried to create a hackdesk account with this email address. You already have one.</p><p><a href="{{.login}}">Sign in</a>, or if you forgot your password, <a href="{{.reset}}">ask for a new one</a>.</p><p>If it was not you, ignore this email; nothing has changed.</p>`,
		"name", "login", "reset"),
	"offer": newTemplate("offer",
		`You have a place at the hackathon`,
		"Hi {{.name}},\n\nGood news: you have been offered a place at the hackathon. Please tell us whether you will attend before {{.deadline}}:\n\n{{.link}}\n\nUnanswered offers expire at the deadline and go to the waitlist.\n",
		`<p>Hi {{.name}},</p><p>Good news: you have been offered a place at the hackathon. Please <a href="{{.link}}">tell us whether you will attend</a> before {{.deadline}}.</p><p>Unanswered offers expire at the deadline and go to the waitlist.</p>`,
		"name", "deadline", "link"),
	"rsvp_reminder": newTemplate("rsvp_reminder",
		`Reminder: answer your hackathon offer`,
		"Hi {{.name}},\n\nYour place at the hackathon is waiting for your answer. The offer expires at {{.deadline}}:\n\n{{.link}}\n",
		`<p>Hi {{.name}},</p><p>Your place at the hackathon is waiting for your answer. The offer expires at {{.deadline}}: <a href="{{.link}}">answer now</a>.</p>`,
		"name", "deadline", "link"),
	// Exec hiring: the outcome of one selection, and the welcome a new
	// exec gets when hiring is finalized.
	"hiring_offer": newTemplate("hiring_offer",
		`Your offer: {{.position}} ({{.term}})`,
		"Hi {{.name}},\n\nWe would like you to join the team as {{.position}} for {{.term}}. Your President will be in touch about accepting the offer.\n",
		`<p>Hi {{.name}},</p><p>We would like you to join the team as {{.position}} for {{.term}}. Your President will be in touch about accepting the offer.</p>`,
		"name", "position", "term"),
	"hiring_rejection": newTemplate("hiring_rejection",
		`Your application for {{.position}} ({{.term}})`,
		"Hi {{.name}},\n\nThank you for applying to be {{.position}} for {{.term}}. We will not be moving forward with your application for this position this time.\n",
		`<p>Hi {{.name}},</p><p>Thank you for applying to be {{.position}} for {{.term}}. We will not be moving forward with your application for this position this time.</p>`,
		"name", "position", "term"),
	"exec_welcome": newTemplate("exec_welcome",
		`Welcome to the {{.term}} team`,
		"Hi {{.name}},\n\nWelcome to the team as {{.position}} for {{.term}}.\n\nOnboarding: {{.onboarding}}\n{{if .chat}}Join the team chat: {{.chat}}\n{{end}}Pick a time for the all-hands: {{.all_hands}}\n",
		`<p>Hi {{.name}},</p><p>Welcome to the team as {{.position}} for {{.term}}.</p><p><a href="{{.onboarding}}">Start your onboarding</a>.</p>{{if .chat}}<p><a href="{{.chat}}">Join the team chat</a>.</p>{{end}}<p><a href="{{.all_hands}}">Pick a time for the all-hands</a>.</p>`,
		"name", "position", "term", "onboarding", "all_hands"),
	// Membership dues: sent once per membership when it is paid, by an
	// exec in person or by a shop receipt.
	"membership_paid": newTemplate("membership_paid",
		`Your {{.term}} membership is paid`,
		"Hi {{.name}},\n\nThank you: your club membership for {{.term}} is paid ({{.amount}} by {{.method}}). Show your membership QR code at events as before.\n",
		`<p>Hi {{.name}},</p><p>Thank you: your club membership for {{.term}} is paid ({{.amount}} by {{.method}}). Show your membership QR code at events as before.</p>`,
		"name", "term", "amount", "method"),
	// Exec forms (TermWindow): a window has opened, and a reminder to those
	// who have not submitted 48 hours before it closes.
	"exec_form_open": newTemplate("exec_form_open",
		`{{.form}} for {{.term}} is open`,
		"Hi {{.name}},\n\n{{.form}} for {{.term}} is open until {{.closes}}. Fill it in here:\n\n{{.link}}\n",
		`<p>Hi {{.name}},</p><p>{{.form}} for {{.term}} is open until {{.closes}}. <a href="{{.link}}">Fill it in</a>.</p>`,
		"name", "form", "term", "closes", "link"),
	"exec_form_reminder": newTemplate("exec_form_reminder",
		`Reminder: {{.form}} for {{.term}} closes {{.closes}}`,
		"Hi {{.name}},\n\nWe have not received your {{.form_lower}} for {{.term}} yet. It closes at {{.closes}}:\n\n{{.link}}\n",
		`<p>Hi {{.name}},</p><p>We have not received your {{.form_lower}} for {{.term}} yet. It closes at {{.closes}}: <a href="{{.link}}">fill it in now</a>.</p>`,
		"name", "form", "form_lower", "term", "closes", "link"),
	// Hackathon editions (ApplicationWindow): a reminder to the owner of a
	// draft 48 hours before applications close, and the close's summary
	// to each superadmin.
	"apply_reminder": newTemplate("apply_reminder",
		`Reminder: applications for {{.hackathon}} close {{.closes}}`,
		"Hi {{.name}},\n\nYour application for {{.hackathon}} is not submitted yet. Applications close at {{.closes}}; finish it here:\n\n{{.link}}\n\n--\nTo stop the club's marketing email: {{.unsubscribe}}\n",
		`<p>Hi {{.name}},</p><p>Your application for {{.hackathon}} is not submitted yet. Applications close at {{.closes}}: <a href="{{.link}}">finish it now</a>.</p><hr><p style="font-size: small"><a href="{{.unsubscribe}}">Unsubscribe</a> from the club's marketing email.</p>`,
		"name", "hackathon", "closes", "link", "unsubscribe"),
	"apply_summary": newTemplate("apply_summary",
		`Applications for {{.hackathon}} have closed`,
		"Hi {{.name}},\n\nApplications for {{.hackathon}} closed at {{.closed}}: {{.submitted}} submitted, {{.drafts}} drafts left unsubmitted.\n\nDashboard: {{.link}}\n",
		`<p>Hi {{.name}},</p><p>Applications for {{.hackathon}} closed at {{.closed}}: {{.submitted}} submitted, {{.drafts}} drafts left unsubmitted.</p><p><a href="{{.link}}">Open the dashboard</a>.</p>`,
		"name", "hackathon", "closed", "submitted", "drafts", "link"),
	"event_ticket": newTemplate("event_ticket",
		`Your ticket for {{.hackathon}}`,
		"Hi {{.name}},\n\n{{.hackathon}} starts {{.starts}} at {{.venue}}. Show this ticket at the door (its QR code is on your application page):\n\n{{.ticket}}\n\nYour application: {{.link}}\n",
		`<p>Hi {{.name}},</p><p>{{.hackathon}} starts {{.starts}} at {{.venue}}. Show <a href="{{.ticket}}">your ticket</a> at the door; its QR code is on <a href="{{.link}}">your application page</a>.</p>`,
		"name", "hackathon", "starts", "venue", "ticket", "link"),
	"event_thanks": newTemplate("event_thanks",
		`Thank you for coming to {{.hackathon}}`,
		"Hi {{.name}},\n\nThank you for coming to {{.hackathon}}. {{.feedback}}\n",
		`<p>Hi {{.name}},</p><p>Thank you for coming to {{.hackathon}}. {{.feedback}}</p>`,
		"name", "hackathon", "feedback"),
	// Broadcasts: a superadmin's subject and plain-text body, as written,
	// with the recipient's unsubscribe link at the foot.
	"broadcast": newTemplate("broadcast",
		`{{.subject}}`,
		"{{.body}}\n\n--\nTo stop the club's marketing email: {{.unsubscribe}}\n",
		`<div style="white-space: pre-wrap">{{.body}}</div><hr><p style="font-size: small"><a href="{{.unsubscribe}}">Unsubscribe</a> from the club's marketing email.</p>`,
		"subject", "body", "unsubscribe"),
}

// Render fills the template of the given kind with data.
func Render(kind string, data map[string]string) (Rendered, error) {
	t, ok := templates[kind]
	if !ok {
		return Rendered{}, fmt.Errorf("unknown email kind %q", kind)
	}
	for _, k := range t.needs {
		if strings.TrimSpace(data[k]) == "" {
			return Rendered{}, fmt.Errorf("email kind %q needs %q", kind, k)
		}
	}
	var subj, text, html bytes.Buffer
	if err := t.subject.Execute(&subj, data); err != nil {
		return Rendered{}, err
	}
	if err := t.text.Execute(&text, data); err != nil {
		return Rendered{}, err
	}
	if err := t.html.Execute(&html, data); err != nil {
		return Rendered{}, err
	}
	return Rendered{Subject: strings.TrimSpace(subj.String()), Text: text.String(), HTML: html.String(), Secret: t.secret}, nil
}
