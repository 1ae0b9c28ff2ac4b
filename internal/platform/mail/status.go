package mail

// Status is where a recorded email is in its delivery (emails.status). The
// set is also a CHECK constraint on the emails table (db/migrations); a test
// in package db keeps the two equal.
type Status string

const (
	StatusPending Status = "pending" // recorded, not yet claimed (or released after a transient failure)
	StatusSending Status = "sending" // claimed by a delivery attempt
	StatusSent    Status = "sent"
	StatusFailed  Status = "failed" // given up: rejected, or the outcome of an attempt is unknown
)

// Statuses lists every Status.
func Statuses() []Status { return []Status{StatusPending, StatusSending, StatusSent, StatusFailed} }
