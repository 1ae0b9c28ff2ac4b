package onboarding

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"path"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// formulaStart reports whether a spreadsheet would read a cell starting
// with s's first byte as a formula (or strip it and then do so).
func formulaStart(s string) bool {
	return s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0]))
}

// FuzzCSVCell: an escaped cell never starts with = + - @, a tab or a
// carriage return; a cell that did gets exactly one leading quote and keeps
// the rest; any other cell is unchanged; escaping twice changes nothing; and
// the cell comes back intact through the CSV writer and reader the export
// uses (a reader turns a quoted \r\n into \n, as every CSV reader does).
func FuzzCSVCell(f *testing.F) {
	for _, s := range []string{"", "Ada", "=1+1", "+1 555", "-2", "@SUM(A1)", "\t=cmd", "\r=cmd", "'=x",
		`=HYPERLINK("http://evil","x")`, " =1", "a,b", `"quoted"`, "line\nbreak", "\n=1", "é", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := CSVCell(s)
		if formulaStart(got) {
			t.Fatalf("CSVCell(%q) = %q starts a formula", s, got)
		}
		if formulaStart(s) {
			if got != "'"+s {
				t.Fatalf("CSVCell(%q) = %q, want one leading quote", s, got)
			}
		} else if got != s {
			t.Fatalf("CSVCell(%q) = %q changed a harmless cell", s, got)
		}
		if again := CSVCell(got); again != got {
			t.Fatalf("CSVCell(%q) = %q, escaped again %q", s, got, again)
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		if err := w.Write([]string{"id", got, "x"}); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		rec, err := csv.NewReader(&buf).Read()
		want := strings.ReplaceAll(got, "\r\n", "\n")
		if err != nil || len(rec) != 3 || rec[1] != want || rec[2] != "x" {
			t.Fatalf("cell %q read back as %q (%v)", got, rec, err)
		}
	})
}

// FuzzDetectImage: a headshot is accepted exactly when it starts with the
// PNG or JPEG signature, and then the type agrees with the standard
// library's sniffer (what a browser would make of the bytes) and names the
// extension of one of the person's keys.
func FuzzDetectImage(f *testing.F) {
	for _, s := range [][]byte{
		{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0x0D, 'I', 'H', 'D', 'R'},
		{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'},
		{0xFF, 0xD8}, []byte("GIF89a"), []byte("<html><script>"), []byte("%PDF-1.4"), nil,
		append([]byte{0xFF, 0xD8, 0xFF}, []byte("<html>")...),
	} {
		f.Add(s)
	}
	term, me := uuid.New(), uuid.New()
	f.Fuzz(func(t *testing.T, data []byte) {
		img, ok := DetectImage(data)
		sniffed := http.DetectContentType(data)
		if !ok {
			if img != (Image{}) {
				t.Fatalf("DetectImage(%x) refused but returned %+v", data, img)
			}
			if sniffed == "image/png" || sniffed == "image/jpeg" {
				t.Fatalf("DetectImage(%x) refused what sniffs as %s", data, sniffed)
			}
			return
		}
		if img.ContentType != sniffed {
			t.Fatalf("DetectImage(%x) = %s, the sniffer says %s", data, img.ContentType, sniffed)
		}
		key := HeadshotKey(term, Onboarding, me, img.Ext)
		found := false
		for _, k := range HeadshotKeys(term, Onboarding, me) {
			found = found || k == key
		}
		if !found || path.Ext(key) != "."+img.Ext {
			t.Fatalf("DetectImage(%x) = %+v: key %s is not one of the person's", data, img, key)
		}
	})
}

// FuzzZipName: a headshot's name in the export archive is one plain file
// name (no directory, no leading dot, no control or separator character,
// valid UTF-8), at most 80 characters of the display name, then the
// profile id and the key's extension.
func FuzzZipName(f *testing.F) {
	for _, s := range []string{"Ada Lovelace", "../../etc/passwd", `C:\Windows\x`, "...hidden", "  ", "",
		"a/b\\c:d*e?f\"g<h>i|j", "\x00\r\n", "é" + strings.Repeat("x", 100), "\u202eexe.jpg", "\xff\xfe", ". . ."} {
		f.Add(s, "headshots/t/onboarding/p.jpg")
	}
	f.Add("Ada", "headshots/t/onboarding/p.png")
	profile := uuid.MustParse("9b2e7c1a-0000-4000-8000-000000000001")
	f.Fuzz(func(t *testing.T, display, key string) {
		got := ZipName(display, profile, key)
		suffix := "-" + profile.String() + path.Ext(key)
		if !strings.HasSuffix(got, suffix) {
			t.Fatalf("ZipName(%q, %q) = %q, want it to end in %q", display, key, got, suffix)
		}
		name := strings.TrimSuffix(got, suffix)
		switch {
		case name == "":
			t.Fatalf("ZipName(%q) has an empty name", display)
		case !utf8.ValidString(name):
			t.Fatalf("ZipName(%q) = %q is not UTF-8", display, got)
		case utf8.RuneCountInString(name) > 80:
			t.Fatalf("ZipName(%q) = %q is longer than 80 characters before the id", display, got)
		case name[0] == '.' || unicode.IsSpace([]rune(name)[0]):
			t.Fatalf("ZipName(%q) = %q starts with a dot or a space", display, got)
		}
		for _, r := range name {
			if r != ' ' && r != '.' && r != '_' && r != '-' && !unicode.IsLetter(r) && !unicode.IsNumber(r) {
				t.Fatalf("ZipName(%q) = %q holds %q", display, got, r)
			}
		}
		if path.Base(name) != name || strings.ContainsAny(name, `/\:`) {
			t.Fatalf("ZipName(%q) = %q is not a plain file name", display, got)
		}
	})
}
