package auth

import (
	"strings"

	"github.com/trustelem/zxcvbn"
	"github.com/trustelem/zxcvbn/match"
)

// MinPasswordScore is the least zxcvbn score (0 to 4) a new password needs:
// 3 means about 10^8 guesses or more, "safely unguessable" for an online
// attack that the rate limits slow down.
const MinPasswordScore = 3

// CheckNewPassword returns the reason a password a person chooses (sign-up,
// reset, `hackdesk users create`) is unacceptable, or "": the length rule
// first, then its strength as zxcvbn estimates it. email and name are the
// account's, so a password built from them counts as weak.
func CheckNewPassword(pw, email, name string) string {
	if why := CheckPassword(pw); why != "" {
		return why
	}
	r := zxcvbn.PasswordStrength(pw, userInputs(email, name))
	if r.Score >= MinPasswordScore {
		return ""
	}
	return "is too easy to guess" + weakness(r.Sequence) + "; add another word or two, or make it longer"
}

// userInputs are the words an attacker who knows the account tries first:
// the email, its local part, the name, each of these run together and
// their words.
func userInputs(email, name string) []string {
	var in []string
	add := func(s string) {
		if s = strings.ToLower(strings.TrimSpace(s)); len(s) >= 3 {
			in = append(in, s)
		}
	}
	words := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" ._-+", r) })
	}
	add(email)
	if at := strings.LastIndex(email, "@"); at > 0 {
		local := email[:at]
		add(local)
		add(strings.Join(words(local), ""))
		for _, w := range words(local) {
			add(w)
		}
	}
	add(name)
	add(strings.Join(words(name), ""))
	for _, w := range words(name) {
		add(w)
	}
	return in
}

// weakness names the first guessable part zxcvbn found, in the words of its
// own feedback.
func weakness(seq []*match.Match) string {
	for _, m := range seq {
		switch {
		case m.Pattern == "dictionary" && m.DictionaryName == "user_inputs":
			return " (it contains your name or email address)"
		case m.Pattern == "dictionary":
			return " (it is built from common words or passwords)"
		case m.Pattern == "repeat":
			return " (it repeats characters or groups)"
		case m.Pattern == "sequence":
			return " (it has sequences like abc or 6543)"
		case m.Pattern == "spatial":
			return " (it has keyboard patterns like qwerty)"
		case m.Pattern == "date" || m.Pattern == "regex":
			return " (it has dates or years)"
		}
	}
	return ""
}
