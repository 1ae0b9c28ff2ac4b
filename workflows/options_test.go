package workflows

import (
	"testing"
	"time"
)

// TestRetryPoliciesOutlastOutages: activities retry without an attempt
// cap for a day, so an outage of the database or a provider (hours, say,
// at an RSVP deadline) delays a workflow instead of ending it. Temporal's
// test environment caps unlimited attempts at ten, so this is checked on
// the options themselves.
func TestRetryPoliciesOutlastOutages(t *testing.T) {
	t.Parallel()
	for name, o := range map[string]struct {
		attempts        int32
		scheduleToClose time.Duration
	}{
		"store":           {storeOptions.RetryPolicy.MaximumAttempts, storeOptions.ScheduleToCloseTimeout},
		"provider":        {providerOptions.RetryPolicy.MaximumAttempts, providerOptions.ScheduleToCloseTimeout},
		"broadcast batch": {batchOptions.RetryPolicy.MaximumAttempts, batchOptions.ScheduleToCloseTimeout},
	} {
		if o.attempts != 0 || o.scheduleToClose < 24*time.Hour {
			t.Errorf("%s: %d attempts, schedule-to-close %v; want no cap and at least a day", name, o.attempts, o.scheduleToClose)
		}
	}
}
