package mail

import "time"

// DateText is how an email writes a deadline: "Mon 2 Jan 2006 15:04 UTC".
func DateText(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") }
