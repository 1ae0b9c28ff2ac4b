package receipts

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Money on a receipt is dollars and cents, read into and written from
// int64 cents.

// maxCents is the largest amount accepted, in cents ($10,000,000).
const maxCents = 1_000_000_000

var moneyPattern = regexp.MustCompile(`^\$?(\d{1,3}(?:,\d{3})+|\d{1,10})(?:\.(\d{1,2}))?$`)

// parseCents reads a dollar amount ("$20.00", "20", "$1,020.50") as cents.
// It rejects negative amounts, more than two decimals, misplaced commas
// and amounts above maxCents.
func parseCents(s string) (int64, error) {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "$-") {
		return 0, fmt.Errorf("negative amount %q", clip(s))
	}
	m := moneyPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("not an amount: %q", clip(s))
	}
	dollars := strings.ReplaceAll(m[1], ",", "")
	if len(dollars) > 10 {
		return 0, fmt.Errorf("amount %q too large", clip(s))
	}
	d, _ := strconv.ParseInt(dollars, 10, 64) // at most 10 digits: cannot fail
	c := int64(0)
	switch len(m[2]) {
	case 1:
		c = int64(m[2][0]-'0') * 10
	case 2:
		c = int64(m[2][0]-'0')*10 + int64(m[2][1]-'0')
	}
	cents := d*100 + c
	if cents > maxCents {
		return 0, fmt.Errorf("amount %q too large", clip(s))
	}
	return cents, nil
}

// FormatCents writes cents as dollars the way receipts do: 102050 →
// "$1,020.50".
func FormatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	d := strconv.FormatInt(c/100, 10)
	for i := len(d) - 3; i > 0; i -= 3 {
		d = d[:i] + "," + d[i:]
	}
	return fmt.Sprintf("%s$%s.%02d", sign, d, c%100)
}
