package broadcast

import (
	"encoding/json"
	"testing"
)

func TestRequestValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		body string
		bad  []string // the fields that fail
	}{
		{"OKMembers", `{"subject":"Hack night","body":"Friday.","audience":{"kind":"members"}}`, nil},
		{"OKPaidMembersOfATerm", `{"subject":"S","body":"B","audience":{"kind":"paid_members","term_id":"6f1c1a4e-8f3a-4c55-9a0e-3d1f0b2a7c11"},"marketing":true}`, nil},
		{"OKApplicantsUndecided", `{"subject":"S","body":"B","audience":{"kind":"applicants","status":"none"}}`, nil},
		{"ErrMissingEverything", `{}`, []string{"subject", "body", "audience"}},
		{"ErrSubjectTwoLines", `{"subject":"S\r\nBcc: x@y.z","body":"B","audience":{"kind":"execs"}}`, []string{"subject"}},
		{"ErrBadTermID", `{"subject":"S","body":"B","audience":{"kind":"members","term_id":"nope"}}`, []string{"audience.term_id"}},
		{"ErrTermForExecs", `{"subject":"S","body":"B","audience":{"kind":"execs","term_id":"6f1c1a4e-8f3a-4c55-9a0e-3d1f0b2a7c11"}}`, []string{"audience.term_id"}},
		{"ErrStatusForMembers", `{"subject":"S","body":"B","audience":{"kind":"members","status":"offer"}}`, []string{"audience.status"}},
		{"ErrUnknownKind", `{"subject":"S","body":"B","audience":{"kind":"all"}}`, []string{"audience.kind"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var req Request
			if err := json.Unmarshal([]byte(tc.body), &req); err != nil {
				t.Fatal(err)
			}
			got := req.Validate()
			if len(got) != len(tc.bad) {
				t.Fatalf("Validate() = %v, want failures of %v", got, tc.bad)
			}
			for _, f := range tc.bad {
				if got[f] == "" {
					t.Errorf("Validate() = %v: no reason for %s", got, f)
				}
			}
		})
	}
}
