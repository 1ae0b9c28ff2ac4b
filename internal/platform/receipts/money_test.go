package receipts_test

import (
	"testing"

	"hackdesk/internal/platform/receipts"
)

func TestParseCents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want int64 // -1: an error
	}{
		{"$20.00", 2000},
		{"20.00", 2000},
		{"$1,020.50", 102050},
		{"20", 2000},
		{"$0.5", 50},
		{"0", 0},
		{"$1,000,000", 100000000},
		{"$10,000,000.00", 1_000_000_000},
		{"$10,000,000.01", -1},
		{"9999999999", -1},
		{"99999999999", -1},
		{"-5.00", -1},
		{"$-5", -1},
		{"20.005", -1},
		{"1,02.50", -1},
		{"1,0200", -1},
		{",100", -1},
		{"", -1},
		{"$", -1},
		{"20.", -1},
		{".50", -1},
		{"1e3", -1},
		{"$$20", -1},
		{"２０", -1},
	}
	for _, c := range cases {
		got, err := receipts.ParseCents(c.in)
		if c.want < 0 {
			if err == nil {
				t.Errorf("parseCents(%q) = %d, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("parseCents(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestFormatCents(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]string{0: "$0.00", 5: "$0.05", 2000: "$20.00", 102050: "$1,020.50", 123456789: "$1,234,567.89", -250: "-$2.50"} {
		if got := receipts.FormatCents(in); got != want {
			t.Errorf("FormatCents(%d) = %q, want %q", in, got, want)
		}
	}
}
