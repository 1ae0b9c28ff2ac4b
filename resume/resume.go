// Package resume checks uploaded resumes: size, real type and a safe name.
package resume

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
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

// ErrUnsupported means the file is not a PDF, DOC or DOCX, or its content
// does not match its extension. Detect wraps it with a short reason.
var ErrUnsupported = errors.New("unsupported file: only PDF, DOC and DOCX resumes are accepted")

var (
	pdfMagic  = []byte("%PDF-")
	ole2Magic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	zipMagic  = []byte("PK\x03\x04") // local file header: a DOCX starts with one
)

// docxMainPart is the entry every WordprocessingML package contains.
const docxMainPart = "word/document.xml"

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
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return Type{}, unsupported("corrupt ZIP archive")
		}
		if !hasEntry(zr, docxMainPart) {
			return Type{}, unsupported("ZIP archive is not a Word document")
		}
		t = DOCX
	default:
		return Type{}, unsupported("content is not a PDF, DOC or DOCX file")
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

func hasEntry(zr *zip.Reader, name string) bool {
	for _, f := range zr.File {
		if f.Name == name {
			return true
		}
	}
	return false
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
// strips leading '.' and '_' (no hidden files, no "..") and trailing '.' from
// the stem; and keeps at most 100 characters by truncating the stem, not the
// extension (the suffix from the last '.', up to 10 characters), which is
// lower-cased. An empty stem becomes "resume".
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
	s := b.String()

	stem, ext := s, ""
	if i := strings.LastIndexByte(s, '.'); i >= 0 && len(s)-i > 1 && len(s)-i <= maxExtLen {
		stem, ext = s[:i], strings.ToLower(s[i:])
	}

	stem = strings.TrimLeft(stem, "._")
	if limit := maxNameLen - len(ext); len(stem) > limit {
		stem = stem[:limit] // ASCII only: byte slicing is safe
	}
	// A trailing '.' would form ".." with the extension.
	stem = strings.TrimRight(stem, ".")
	if stem == "" {
		stem = defaultStem
	}
	return stem + ext
}

// allowed reports whether r may appear in a SafeName result ('.' is handled
// separately).
func allowed(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_'
}
