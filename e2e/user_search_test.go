package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// searchEmails runs GET /api/users/emails and returns the emails found.
func searchEmails(t *testing.T, c *client, query string) []string {
	t.Helper()
	var found struct {
		Emails []struct {
			Email string `json:"email"`
		} `json:"emails"`
	}
	c.expect(http.StatusOK, "GET", "/api/users/emails?"+query, nil).JSON(t, &found)
	out := make([]string, len(found.Emails))
	for i, e := range found.Emails {
		out[i] = e.Email
	}
	return out
}

// TestUserSearchMatchesWordPrefixes: the team search finds a person by
// the start of a word of their name or of their email's local part, or by
// their whole email; never by the middle of a word or by the domain, and
// never more than 8 accounts, whatever limit asks.
func TestUserSearchMatchesWordPrefixes(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, _ := member(t, a, anon, "me@example.com", "Me")
	account(t, a, "ada.lovelace@example.com", "Ada Lovelace", "member")
	account(t, a, "adam_smith@example.org", "Adam Smith", "member")
	account(t, a, "zed@example.org", "Zed Adams", "member")
	account(t, a, "kay@example.net", "Kay O'Neil-Brown", "member")
	for i := range 12 {
		account(t, a, fmt.Sprintf("member%02d@club.example", i), fmt.Sprintf("Member %02d", i), "member")
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"q=lov", []string{"ada.lovelace@example.com"}},      // a name word and a local-part word
		{"q=LOVELACE", []string{"ada.lovelace@example.com"}}, // case
		{"q=ada", []string{"ada.lovelace@example.com", "adam_smith@example.org", "zed@example.org"}},
		{"q=smi", []string{"adam_smith@example.org"}},       // after an underscore of the local part
		{"q=ada+lov", []string{"ada.lovelace@example.com"}}, // words in a row
		{"q=ada.lo", []string{"ada.lovelace@example.com"}},  // the local part as typed
		{"q=bro", []string{"kay@example.net"}},              // after a hyphen
		{"q=nei", []string{"kay@example.net"}},              // after an apostrophe
		{"q=ADA.LOVELACE@example.com", []string{"ada.lovelace@example.com"}},
		{"q=ovelace", nil},              // the middle of a word
		{"q=example", nil},              // the domain
		{"q=example.org", nil},          // the domain
		{"q=ada.lovelace@example", nil}, // part of an address
		{"q=%25%25%25", nil},            // LIKE wildcards match themselves
	} {
		if got := searchEmails(t, me, c.q); !slices.Equal(got, c.want) {
			t.Errorf("search %s = %v, want %v", c.q, got, c.want)
		}
	}
	for _, q := range []string{"q=mem", "q=mem&limit=50", "q=member"} {
		if got := searchEmails(t, me, q); len(got) != 8 || got[0] != "member00@club.example" {
			t.Errorf("search %s = %d accounts %v, want the first 8", q, len(got), got)
		}
	}
	if got := searchEmails(t, me, "q=mem&limit=3"); len(got) != 3 {
		t.Errorf("limit=3 answered %d", len(got))
	}
}

// TestUserSearchDailyQuota: one account lists at most 100 accounts a day
// through the team search; the search that would pass it lists what is
// left, the next is 429 with a Retry-After within a day and a message that
// says why. Another account is not affected, nor are searches that list
// nobody.
func TestUserSearchDailyQuota(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	me, _ := member(t, a, anon, "me@example.com", "Me")
	other, _ := member(t, a, anon, "other@example.com", "Other")
	for i := range 12 {
		account(t, a, fmt.Sprintf("member%02d@club.example", i), fmt.Sprintf("Member %02d", i), "member")
	}
	listed := 0
	for range 12 {
		listed += len(searchEmails(t, me, "q=mem"))
	}
	if listed != 96 {
		t.Fatalf("12 searches listed %d accounts, want 96", listed)
	}
	searchEmails(t, me, "q=nobody") // lists nobody, costs nothing
	if got := searchEmails(t, me, "q=mem"); len(got) != 4 {
		t.Fatalf("the search at the quota listed %d accounts, want the 4 left", len(got))
	}
	r := me.do("GET", "/api/users/emails?q=mem", nil)
	check429(t, r)
	if ra, _ := strconv.Atoi(r.Header.Get("Retry-After")); ra > 2*24*3600 {
		t.Errorf("Retry-After %d", ra)
	}
	if msg, _ := r.Map(t)["message"].(string); !strings.Contains(msg, "100 accounts a day") {
		t.Errorf("429 message %q", msg)
	}
	check429(t, me.do("GET", "/api/users/emails?q=me@club.example", nil))
	if got := searchEmails(t, other, "q=mem"); len(got) != 8 {
		t.Fatalf("another account listed %d", len(got))
	}
}
