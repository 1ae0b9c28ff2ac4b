package seed_test

import (
	"errors"
	"testing"

	"hackdesk/dev/seed"
)

func TestCheckTarget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, url string
		ok        bool
	}{
		{"OKDevCluster", "postgres://hackdesk:pw@127.0.0.1:15432/hackdesk?sslmode=disable", true},
		{"OKLocalhost", "postgres://hackdesk:pw@localhost:15432/other", true},
		{"OKIPv6Loopback", "postgres://hackdesk:pw@[::1]:15432/hackdesk", true},
		{"OKKeywordForm", "host=127.0.0.1 port=15432 dbname=hackdesk user=hackdesk", true},
		{"ErrOtherPort", "postgres://hackdesk:pw@127.0.0.1:5432/hackdesk", false},
		{"ErrDefaultPort", "postgres://hackdesk:pw@127.0.0.1/hackdesk", false},
		{"ErrRemoteHost", "postgres://hackdesk:pw@db.example.org:15432/hackdesk", false},
		{"ErrPrivateAddress", "postgres://hackdesk:pw@10.0.0.5:15432/hackdesk", false},
		{"ErrSecondHostRemote", "postgres://hackdesk:pw@127.0.0.1:15432,db.example.org:15432/hackdesk", false},
		{"ErrGarbage", "postgres://%zz", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := seed.CheckTarget(tc.url, 15432)
			if tc.ok && err != nil {
				t.Fatalf("CheckTarget(%q) = %v, want nil", tc.url, err)
			}
			if !tc.ok && !errors.Is(err, seed.ErrNotDevDatabase) {
				t.Fatalf("CheckTarget(%q) = %v, want ErrNotDevDatabase", tc.url, err)
			}
		})
	}
}
