// Package resume checks uploaded resumes: size, real type and a safe name.
package resume

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxSize is the largest accepted resume, in bytes. Detect does not enforce
// it: callers should limit the upload (e.g. with http.MaxBytesReader) before
// reading it into memory.
const MaxSize = 10 << 20 // 10 MB

// Type is an accepted resume format.
type Type struct {
	Ext         string // ".pdf", ".doc", ".docx"
	ContentType string // "application/pdf", "application/msword", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
}

// The accepted resume formats.
var (
	PDF  = Type{Ext: ".pdf", ContentType: "application/pdf"}
	DOC  = Type{Ext: ".doc", ContentType: "application/msword"}
	DOCX = Type{Ext: ".docx", ContentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}
)

// Types lists the accepted formats.
func Types() []Type { return []Type{PDF, DOC, DOCX} }

// Kind is the short name stored with a resume's key: "pdf", "doc" or
// "docx" (the extension without its dot).
func (t Type) Kind() string { return strings.TrimPrefix(t.Ext, ".") }

// Kinds lists the Kind of every accepted format.
func Kinds() []string {
	out := make([]string, 0, 3)
	for _, t := range Types() {
		out = append(out, t.Kind())
	}
	return out
}

// ByKind returns the format a stored kind names.
func ByKind(kind string) (Type, bool) {
	for _, t := range Types() {
		if t.Kind() == kind {
			return t, true
		}
	}
	return Type{}, false
}

// ErrUnsupported means the file is not a PDF, DOC or DOCX, or its content
// does not match its extension. Detect wraps it with a short reason.
var ErrUnsupported = errors.New("unsupported file: only PDF, DOC and DOCX resumes are accepted")

var (
	pdfMagic  = []byte("%PDF-")
	ole2Magic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	zipMagic  = []byte("PK\x03\x04") // local file header: a DOCX starts with one
	// centralMagic starts each entry's central directory header.
	centralMagic = []byte("PK\x01\x02")
)

// docxMainPart is the entry every WordprocessingML package contains.
const docxMainPart = "word/document.xml"

const (
	// MaxExpanded bounds what a DOCX's entries may declare they expand to,
	// all together (64 MiB). A real resume is far below it; a zip bomb
	// (small entries that inflate to gigabytes) is far above.
	MaxExpanded = 64 << 20
	// MaxEntries bounds the entries of a DOCX; a resume has a few dozen.
	MaxEntries = 1000
	// pdfWindow is how far into a file PDF readers look for "%PDF-".
	pdfWindow = 1024
)

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

// Detect returns the type of data (the whole file) given its original filename.
//
// PDF: data starts with "%PDF-". DOC: data starts with the OLE2 signature
// D0 CF 11 E0 A1 B1 1A E1. DOCX: data is a ZIP archive (starting with a local
// file header) that contains an entry named "word/document.xml".
// The filename's extension (case-insensitive) must be the detected type's
// extension. Every failure wraps ErrUnsupported with a short reason.
//
// Polyglots are refused: a PDF or DOC whose bytes also form a ZIP archive,
// and a DOCX with "%PDF-" in its first 1024 bytes (where PDF readers look).
// So is a DOCX of more than MaxEntries entries, or whose entries declare
// more than MaxExpanded bytes in all (a zip bomb), or whose main part does
// not inflate to the size it declares. Nothing is inflated but the main
// part, and that only up to its declared size.
func Detect(filename string, data []byte) (Type, error) {
	if len(data) == 0 {
		return Type{}, unsupported("empty file")
	}

	var t Type
	switch {
	case bytes.HasPrefix(data, pdfMagic):
		t = PDF
	case bytes.HasPrefix(data, ole2Magic):
		t = DOC
	case bytes.HasPrefix(data, zipMagic):
		if err := checkDOCX(data); err != nil {
			return Type{}, err
		}
		t = DOCX
	default:
		return Type{}, unsupported("content is not a PDF, DOC or DOCX file")
	}
	if t != DOCX {
		if _, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err == nil {
			return Type{}, unsupported("content is both a %s and a ZIP archive", strings.ToUpper(t.Ext[1:]))
		}
	}

	ext := strings.ToLower(extension(baseName(filename)))
	switch ext {
	case t.Ext:
		return t, nil
	case "":
		return Type{}, unsupported("file name has no extension")
	case PDF.Ext, DOC.Ext, DOCX.Ext:
		return Type{}, unsupported("content does not match %s", ext)
	default:
		return Type{}, unsupported("extension %q is not accepted", ext)
	}
}

// HeadSize is how many leading bytes of a stored resume Sniff needs.
const HeadSize = 8

// Sniff tells the type of a resume that Detect accepted when it was
// uploaded from its first HeadSize bytes: among files that passed Detect,
// the signatures alone tell the three formats apart (a DOCX is the one that
// starts as a ZIP). It serves resumes stored before their type was; a head
// that starts with no signature wraps ErrUnsupported.
func Sniff(head []byte) (Type, error) {
	switch {
	case bytes.HasPrefix(head, pdfMagic):
		return PDF, nil
	case bytes.HasPrefix(head, ole2Magic):
		return DOC, nil
	case bytes.HasPrefix(head, zipMagic):
		return DOCX, nil
	}
	return Type{}, unsupported("content starts with no PDF, DOC or DOCX signature")
}

// checkDOCX checks a ZIP archive as a Word document (see Detect).
func checkDOCX(data []byte) error {
	// The reader allocates a File per entry (a 10 MB archive can list
	// 100,000 empty ones); each has a central directory header, so counting
	// their signatures bounds the entries first.
	if bytes.Count(data, centralMagic) > MaxEntries {
		return unsupported("ZIP archive has more than %d entries", MaxEntries)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return unsupported("corrupt ZIP archive")
	}
	var (
		total uint64
		main  *zip.File
	)
	for _, f := range zr.File {
		if f.UncompressedSize64 > MaxExpanded-total {
			return unsupported("ZIP archive expands to more than %d MiB", MaxExpanded>>20)
		}
		total += f.UncompressedSize64
		if f.Name == docxMainPart && main == nil {
			main = f
		}
	}
	if main == nil {
		return unsupported("ZIP archive is not a Word document")
	}
	if bytes.Contains(data[:min(len(data), pdfWindow)], pdfMagic) {
		return unsupported("content is both a ZIP archive and a PDF")
	}
	rc, err := main.Open()
	if err != nil {
		return unsupported("corrupt ZIP archive")
	}
	defer rc.Close()
	// The reader fails past the declared size (and on a bad checksum), so
	// this reads at most that much.
	if n, err := io.Copy(io.Discard, rc); err != nil || uint64(n) != main.UncompressedSize64 {
		return unsupported("corrupt ZIP archive")
	}
	return nil
}

// baseName returns the part of name after the last '/' or '\\'.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// extension returns the suffix of base starting at its last '.', or "".
func extension(base string) string {
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return base[i:]
	}
	return ""
}

const (
	maxNameLen = 100
	// maxExtLen bounds what SafeName treats as an extension (dot included);
	// a longer suffix is just part of the stem.
	maxExtLen = 10
	// defaultStem replaces a stem that sanitizes to nothing.
	defaultStem = "resume"
)

// SafeName reduces a client-supplied filename to a safe basename for an
// object key.
//
// It takes the part after the last '/' or '\\'; keeps ASCII letters, digits,
// '.', '-' and '_'; replaces each run of any other characters (spaces and
// invalid UTF-8 included) with a single '_'; collapses runs of '.' to one;
// drops trailing '.'; strips leading '.' and '_' (no hidden files, no "..")
// and trailing '.' from the stem; and keeps at most 100 characters by
// truncating the stem, not the extension (the suffix from the last '.', up
// to 10 characters), which is lower-cased. An empty stem becomes "resume".
// Applied to its own result, it changes nothing.
//
// The result is never empty, is at most 100 bytes of [A-Za-z0-9._-], does not
// start with '.', and contains neither '/' nor "..".
//
// Examples: "../../etc/passwd.pdf" → "passwd.pdf"; "My CV (final).PDF" →
// "My_CV_final_.pdf"; `C:\Users\me\cv.docx` → "cv.docx"; "..pdf" →
// "resume.pdf"; "résumé.pdf" → "r_sum_.pdf".
func SafeName(filename string) string {
	base := baseName(filename)

	var b strings.Builder
	b.Grow(len(base))
	replaced := false // last written byte is a replacement '_'
	for _, r := range base {
		switch {
		case r == '.':
			if s := b.String(); len(s) > 0 && s[len(s)-1] == '.' {
				continue // collapse "..": never produce it
			}
			b.WriteRune(r)
			replaced = false
		case allowed(r):
			b.WriteRune(r)
			replaced = false
		case !replaced:
			b.WriteByte('_')
			replaced = true
		}
	}
	// Trailing dots go first (Windows drops them too): what they leave
	// may end in an extension, which is then lower-cased like any other.
	s := strings.TrimRight(b.String(), ".")

	stem, ext := splitExt(s)
	stem = strings.TrimLeft(stem, "._")
	if limit := maxNameLen - len(ext); len(stem) > limit {
		stem = stem[:limit] // ASCII only: byte slicing is safe
	}
	// A trailing '.' would form ".." with the extension.
	stem = strings.TrimRight(stem, ".")
	if stem == "" {
		stem = defaultStem
	}
	if ext == "" {
		// Cutting a long stem may leave a suffix that reads as an
		// extension; it is lower-cased as a second pass would.
		stem, ext = splitExt(stem)
	}
	return stem + ext
}

// splitExt splits s before its extension, the suffix from its last '.' of
// 2 to maxExtLen bytes, which it lower-cases; no such suffix is no
// extension.
func splitExt(s string) (stem, ext string) {
	if i := strings.LastIndexByte(s, '.'); i >= 0 && len(s)-i > 1 && len(s)-i <= maxExtLen {
		return s[:i], strings.ToLower(s[i:])
	}
	return s, ""
}

// allowed reports whether r may appear in a SafeName result ('.' is handled
// separately).
func allowed(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_'
}
