package web

import "net/url"

// The notices the home page shows from its query: a fixed set of codes,
// each with the ids it needs, that the page maps to strings of its
// catalogue (web/src/pages/home/notices.ts holds the same set). Any other
// `notice` shows nothing, so a link can never make the site print words
// of its choosing, and a redirect never carries text.
const (
	// NoticeFormClosed: the caller's exec form is closed to them;
	// &form=onboarding|returning&term=<term id> name it, and the page
	// reads the window's words from the API ("Onboarding for <term> opens
	// <date>").
	NoticeFormClosed = "form-closed"
)

// NoticeURL is the home page's path with the notice code and its ids,
// given as name, value pairs.
func NoticeURL(code string, ids ...string) string {
	v := url.Values{"notice": {code}}
	for i := 0; i+1 < len(ids); i += 2 {
		v.Set(ids[i], ids[i+1])
	}
	return "/?" + v.Encode()
}
