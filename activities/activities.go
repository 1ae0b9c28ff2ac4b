// Package activities holds every Temporal activity. Activities are methods
// on Activities, whose fields are their dependencies; each is safe to run
// more than once with the same input.
package activities

import (
	"hackdesk/db"
	"hackdesk/mail"
	"hackdesk/storage"
)

// Activities is registered on the worker as a pointer; workflows refer to
// its methods through a nil *Activities.
type Activities struct {
	Store    *db.Store
	Blob     *storage.Store
	Mailer   mail.Sender
	MailFrom string
}
