package broadcast

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/internal/platform/signing"
)

func dec(d Decision) *Decision { return &d }

func TestCheckAudience(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a    Audience
		want map[string]string // field -> a word of the reason
	}{
		{"OKMembersOfTheActiveTerm", Audience{Kind: Members}, nil},
		{"OKPaidMembersOfATerm", Audience{Kind: PaidMembers, HasTerm: true}, nil},
		{"OKExecs", Audience{Kind: Execs}, nil},
		{"OKApplicants", Audience{Kind: Applicants}, nil},
		{"OKApplicantsUndecided", Audience{Kind: Applicants, Decision: dec(None)}, nil},
		{"OKApplicantsOffered", Audience{Kind: Applicants, Decision: dec(Offer)}, nil},
		{"ErrUnknownKind", Audience{Kind: "everyone"}, map[string]string{"audience.kind": "one of"}},
		{"ErrNoKind", Audience{}, map[string]string{"audience.kind": "one of"}},
		{"ErrExecsOfATerm", Audience{Kind: Execs, HasTerm: true}, map[string]string{"audience.term_id": "only"}},
		{"ErrApplicantsOfATerm", Audience{Kind: Applicants, HasTerm: true}, map[string]string{"audience.term_id": "only"}},
		{"ErrMembersByDecision", Audience{Kind: Members, Decision: dec(Offer)}, map[string]string{"audience.status": "only applicants"}},
		{"ErrUnknownDecision", Audience{Kind: Applicants, Decision: dec("maybe")}, map[string]string{"audience.status": "one of"}},
		{"ErrBoth", Audience{Kind: Execs, HasTerm: true, Decision: dec(Reject)},
			map[string]string{"audience.term_id": "only", "audience.status": "only applicants"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := CheckAudience(tc.a)
			if len(got) != len(tc.want) || !maps.EqualFunc(got, tc.want, strings.Contains) {
				t.Fatalf("CheckAudience(%+v) = %v, want %v", tc.a, got, tc.want)
			}
		})
	}
}

func TestCheckSubjectAndBody(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, subject, why string
	}{
		{"OK", "Hack night on Friday", ""},
		{"OKAccents", "Soirée de hackathon", ""},
		{"OKLongest", strings.Repeat("é", MaxSubject), ""},
		{"ErrEmpty", "  ", "required"},
		{"ErrTooLong", strings.Repeat("a", MaxSubject+1), "at most"},
		{"ErrHeaderInjection", "Hi\r\nBcc: eve@example.org", "line breaks"},
		{"ErrTab", "Hi\tthere", "tabs"},
		{"ErrBidiOverride", "Hi \u202eevil", "direction overrides"},
		{"ErrNotUTF8", "Hi \xff", "UTF-8"},
	} {
		t.Run("Subject"+tc.name, func(t *testing.T) {
			t.Parallel()
			if got := CheckSubject(tc.subject); (got == "") != (tc.why == "") || !strings.Contains(got, tc.why) {
				t.Fatalf("CheckSubject(%q) = %q, want %q", tc.subject, got, tc.why)
			}
		})
	}
	for _, tc := range []struct {
		name, body, why string
	}{
		{"OKLines", "Hello,\n\nSee you there.\n", ""},
		{"ErrEmpty", "\n\n", "required"},
		{"ErrTooLong", strings.Repeat("a", MaxBody+1), "at most"},
	} {
		t.Run("Body"+tc.name, func(t *testing.T) {
			t.Parallel()
			if got := CheckBody(tc.body); (got == "") != (tc.why == "") || !strings.Contains(got, tc.why) {
				t.Fatalf("CheckBody = %q, want %q", got, tc.why)
			}
		})
	}
}

func TestUnsubscribe(t *testing.T) {
	t.Parallel()
	s := UnsubscribeSigner([]byte(strings.Repeat("k", 32)))
	who := uuid.New()
	h := UnsubscribeHeaders("https://club.example/", s, who)
	want := "<https://club.example/api/unsubscribe?token=" + UnsubscribeToken(s, who) + ">"
	if h["List-Unsubscribe"] != want || h["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" || len(h) != 2 {
		t.Fatalf("headers %v, want List-Unsubscribe %s", h, want)
	}
	got, err := OpenUnsubscribeToken(s, UnsubscribeToken(s, who))
	if err != nil || got != who {
		t.Fatalf("open = %v, %v", got, err)
	}
	for name, tok := range map[string]string{
		"ErrEmpty":        "",
		"ErrTampered":     UnsubscribeToken(s, who) + "x",
		"ErrOtherKey":     UnsubscribeSigner([]byte(strings.Repeat("j", 32))).Seal(who.String()),
		"ErrOtherPurpose": signing.New([]byte(strings.Repeat("k", 32)), signing.PurposeMembershipQR).Seal(who.String()),
		"ErrNotAProfile":  s.Seal("not-a-uuid"),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := OpenUnsubscribeToken(s, tok); err != ErrBadToken {
				t.Fatalf("open(%q) = %v, want ErrBadToken", tok, err)
			}
		})
	}
	if k := EmailKey(who, who); k != "broadcast:"+who.String()+":"+who.String() {
		t.Fatalf("key %q", k)
	}
}
