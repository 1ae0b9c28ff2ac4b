package broadcast

import (
	"bytes"
	"html/template"
	"mime"
)

// MaxOneClickBody caps the one-click form ("List-Unsubscribe=One-Click").
const MaxOneClickBody = 4 << 10

// OneClickContentType reports whether a body of this Content-Type is one
// a mail client sends for a one-click unsubscribe (RFC 8058): a form,
// urlencoded or multipart.
func OneClickContentType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data")
}

// UnsubscribedMessage is what a one-click unsubscribe answers.
const UnsubscribedMessage = "You will get no more marketing email from us"

// The pages of the unsubscribe link, opened in a browser: the
// confirmation whose button posts the one-click form, the answer to it,
// and the page of a link that is not ours. The form has no action, so it
// posts to the page's own URL, token included.
var (
	pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.5rem 1rem}</style>
</head><body><h1>{{.Title}}</h1><p>{{.Text}}</p>{{if .Button}}
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">{{.Button}}</button></form>{{end}}
</body></html>
`))
	ConfirmPage      = renderPage("Unsubscribe", "Stop the club's marketing email? Emails about your own account, applications and membership still arrive.", "Unsubscribe")
	UnsubscribedPage = renderPage("Unsubscribed", UnsubscribedMessage+". You can opt in again on your next application.", "")
	BadLinkPage      = renderPage("Invalid unsubscribe link", "The link is incomplete or was not made by this service. Copy the whole link from the email.", "")
)

// renderPage renders a page once, when the package loads; the template
// and its data are constants, so it cannot fail at run time.
func renderPage(title, text, button string) []byte {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, struct{ Title, Text, Button string }{title, text, button}); err != nil {
		panic(err)
	}
	return b.Bytes()
}
