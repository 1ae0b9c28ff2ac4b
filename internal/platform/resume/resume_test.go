package resume

import (
	"archive/zip"
	"bytes"
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// --- fixtures ---------------------------------------------------------------

// minimalPDF is a small but well-formed PDF 1.4 document (one empty page).
var minimalPDF = []byte("%PDF-1.4\n" +
	"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
	"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
	"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n" +
	"xref\n0 4\n" +
	"0000000000 65535 f \n" +
	"0000000009 00000 n \n" +
	"0000000058 00000 n \n" +
	"0000000115 00000 n \n" +
	"trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n188\n%%EOF\n")

// ole2Header is an OLE2 compound-file signature followed by zero padding up
// to the 512-byte header size, like the start of a legacy .doc.
var ole2Header = append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 504)...)

// pngHeader is the PNG signature followed by the start of an IHDR chunk.
var pngHeader = []byte{
	0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,
	0x00, 0x00, 0x00, 0x0D, 'I', 'H', 'D', 'R',
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00,
}

type zipEntry struct{ name, body string }

func makeZip(t testing.TB, entries ...zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatalf("zip create %s: %v", e.name, err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatalf("zip write %s: %v", e.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatalf("zip close: %v", err)
	}
	return buf.Bytes()
}

const relsXML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
	`</Relationships>`

func makeDOCX(t testing.TB) []byte {
	return makeZip(t,
		zipEntry{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
			`</Types>`},
		zipEntry{"_rels/.rels", relsXML},
		zipEntry{"word/document.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
			`<w:body><w:p><w:r><w:t>Jane Doe — Resume</w:t></w:r></w:p></w:body></w:document>`},
	)
}

// makeXLSX is a spreadsheet package: a valid ZIP without word/document.xml.
func makeXLSX(t testing.TB) []byte {
	return makeZip(t,
		zipEntry{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		zipEntry{"_rels/.rels", strings.ReplaceAll(relsXML, "word/document.xml", "xl/workbook.xml")},
		zipEntry{"xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>`},
	)
}

func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// --- Detect -----------------------------------------------------------------

func TestDetect(t *testing.T) {
	t.Parallel()
	docx := makeDOCX(t)
	xlsx := makeXLSX(t)

	tests := []struct {
		name       string
		filename   string
		data       []byte
		want       Type
		wantErr    bool
		wantReason string // substring of the error message, if set
	}{
		{name: "OK_PDF", filename: "cv.pdf", data: minimalPDF, want: PDF},
		{name: "OK_PDFUpperCaseExt", filename: "CV.PDF", data: minimalPDF, want: PDF},
		{name: "OK_PDFWindowsPath", filename: `C:\Users\me\cv.Pdf`, data: minimalPDF, want: PDF},
		{name: "OK_DOC", filename: "cv.doc", data: ole2Header, want: DOC},
		{name: "OK_DOCX", filename: "cv.docx", data: docx, want: DOCX},
		{name: "OK_DOCXUpperCaseExt", filename: "My CV.DOCX", data: docx, want: DOCX},

		{name: "ErrPNGNamedPDF", filename: "photo.pdf", data: pngHeader, wantErr: true, wantReason: "not a PDF, DOC or DOCX"},
		{name: "ErrPDFNamedDOCX", filename: "cv.docx", data: minimalPDF, wantErr: true, wantReason: "does not match .docx"},
		{name: "ErrPDFNamedDOC", filename: "cv.doc", data: minimalPDF, wantErr: true, wantReason: "does not match .doc"},
		{name: "ErrDOCXNamedDOC", filename: "cv.doc", data: docx, wantErr: true, wantReason: "does not match .doc"},
		{name: "ErrDOCNamedPDF", filename: "cv.pdf", data: ole2Header, wantErr: true, wantReason: "does not match .pdf"},
		{name: "ErrXLSXNamedDOCX", filename: "budget.docx", data: xlsx, wantErr: true, wantReason: "not a Word document"},
		{name: "ErrEmptyZIPNamedDOCX", filename: "cv.docx", data: makeZip(t), wantErr: true},
		{name: "ErrTruncatedZIPNamedDOCX", filename: "cv.docx", data: docx[:len(docx)/2], wantErr: true, wantReason: "corrupt ZIP"},
		{name: "ErrZIPHeaderOnlyNamedDOCX", filename: "cv.docx", data: []byte("PK\x03\x04"), wantErr: true, wantReason: "corrupt ZIP"},
		{name: "ErrSelfExtractingEXENamedDOCX", filename: "cv.docx", data: concat([]byte("MZ\x90\x00"), make([]byte, 60), docx), wantErr: true},
		{name: "ErrNoExtension", filename: "resume", data: minimalPDF, wantErr: true, wantReason: "no extension"},
		{name: "ErrTrailingDot", filename: "resume.", data: minimalPDF, wantErr: true},
		{name: "ErrExtensionInDirectoryOnly", filename: "docs.pdf/resume", data: minimalPDF, wantErr: true, wantReason: "no extension"},
		{name: "ErrPDFNamedEXE", filename: "cv.exe", data: minimalPDF, wantErr: true, wantReason: `".exe" is not accepted`},
		{name: "ErrEXE", filename: "setup.exe", data: concat([]byte("MZ\x90\x00"), make([]byte, 60)), wantErr: true},
		{name: "ErrDoubleExtension", filename: "cv.pdf.exe", data: minimalPDF, wantErr: true},
		{name: "ErrEmptyData", filename: "cv.pdf", data: []byte{}, wantErr: true, wantReason: "empty"},
		{name: "ErrNilData", filename: "cv.pdf", data: nil, wantErr: true, wantReason: "empty"},
		{name: "ErrPlainText", filename: "cv.pdf", data: []byte("Jane Doe\nSoftware engineer\n"), wantErr: true},
		{name: "ErrPDFMagicNotAtStart", filename: "cv.pdf", data: concat([]byte(" "), minimalPDF), wantErr: true},
		{name: "ErrShortPDFMagic", filename: "cv.pdf", data: []byte("%PDF"), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Detect(tt.filename, tt.data)
			if tt.wantErr {
				if !errors.Is(err, ErrUnsupported) {
					t.Fatalf("Detect(%q) error = %v, want ErrUnsupported", tt.filename, err)
				}
				if got != (Type{}) {
					t.Errorf("Detect(%q) type = %+v on error, want zero Type", tt.filename, got)
				}
				if tt.wantReason != "" && !strings.Contains(err.Error(), tt.wantReason) {
					t.Errorf("Detect(%q) error = %q, want it to contain %q", tt.filename, err, tt.wantReason)
				}
				return
			}
			if err != nil {
				t.Fatalf("Detect(%q) unexpected error: %v", tt.filename, err)
			}
			if got != tt.want {
				t.Errorf("Detect(%q) = %+v, want %+v", tt.filename, got, tt.want)
			}
		})
	}
}

func TestTypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  Type
		want Type
	}{
		{"PDF", PDF, Type{".pdf", "application/pdf"}},
		{"DOC", DOC, Type{".doc", "application/msword"}},
		{"DOCX", DOCX, Type{".docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.got != tt.want {
				t.Errorf("got %+v, want %+v", tt.got, tt.want)
			}
		})
	}
	if MaxSize != 10*1024*1024 {
		t.Errorf("MaxSize = %d, want 10 MiB", MaxSize)
	}
}

// Sniff gives every file Detect accepts the type Detect gave it, from
// the first HeadSize bytes alone, and refuses a head with no signature.
func TestSniff(t *testing.T) {
	t.Parallel()
	docx := makeDOCX(t)
	for _, tt := range []struct {
		name string
		file string
		data []byte
	}{
		{"OK_PDF", "cv.pdf", minimalPDF},
		{"OK_DOC", "cv.doc", ole2Header},
		{"OK_DOCX", "cv.docx", docx},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, err := Detect(tt.file, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Sniff(tt.data[:HeadSize])
			if err != nil || got != want {
				t.Fatalf("Sniff = %+v, %v; want %+v", got, err, want)
			}
			if k, ok := ByKind(want.Kind()); !ok || k != want {
				t.Fatalf("ByKind(%q) = %+v, %v", want.Kind(), k, ok)
			}
		})
	}
	for _, head := range [][]byte{pngHeader[:HeadSize], []byte("%PDF"), nil} {
		if got, err := Sniff(head); !errors.Is(err, ErrUnsupported) {
			t.Errorf("Sniff(%q) = %+v, %v; want ErrUnsupported", head, got, err)
		}
	}
	if got := strings.Join(Kinds(), ","); got != "pdf,doc,docx" {
		t.Errorf("Kinds() = %s", got)
	}
	if _, ok := ByKind("exe"); ok {
		t.Error(`ByKind("exe") found a type`)
	}
}

func FuzzDetect(f *testing.F) {
	docx := makeDOCX(f)
	for _, s := range []struct {
		name string
		data []byte
	}{
		{"cv.pdf", minimalPDF},
		{"cv.doc", ole2Header},
		{"cv.docx", docx},
		{"cv.docx", docx[:len(docx)/2]},
		{"cv.docx", makeXLSX(f)},
		{"cv.pdf", pngHeader},
		{"cv", nil},
	} {
		f.Add(s.name, s.data)
	}
	f.Fuzz(func(t *testing.T, filename string, data []byte) {
		got, err := Detect(filename, data)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Detect(%q) error %v does not wrap ErrUnsupported", filename, err)
			}
			if got != (Type{}) {
				t.Fatalf("Detect(%q) returned %+v with error", filename, got)
			}
			return
		}
		if got != PDF && got != DOC && got != DOCX {
			t.Fatalf("Detect(%q) = %+v, not an accepted type", filename, got)
		}
		if !strings.HasSuffix(strings.ToLower(filename), got.Ext) {
			t.Fatalf("Detect(%q) = %s, name does not end in it", filename, got.Ext)
		}
		if len(data) == 0 {
			t.Fatalf("Detect(%q) accepted empty data", filename)
		}
	})
}

// --- SafeName ---------------------------------------------------------------

func TestSafeName(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 300) + ".pdf"
	// The truncation point (stem byte 96) falls just after a '.', which must
	// not end up next to the extension's dot.
	dotAtCut := strings.Repeat("a", 95) + "." + strings.Repeat("b", 200) + ".PDF"

	tests := []struct {
		name, in, want string
	}{
		{"PathTraversal", "../../etc/passwd.pdf", "passwd.pdf"},
		{"SpacesAndParens", "My CV (final).PDF", "My_CV_final_.pdf"},
		{"WindowsPath", `C:\Users\me\cv.docx`, "cv.docx"},
		{"DotDotExt", "..pdf", "resume.pdf"},
		{"NonASCII", "résumé.pdf", "r_sum_.pdf"},
		{"Plain", "cv.pdf", "cv.pdf"},
		{"MixedSeparators", `a/b\c/d.DOC`, "d.doc"},
		{"Long", long, strings.Repeat("x", 96) + ".pdf"},
		{"LongDotAtCut", dotAtCut, strings.Repeat("a", 95) + ".pdf"},
		{"OnlySpaces", "     ", "resume"},
		{"OnlySpacesWithExt", "   .pdf", "resume.pdf"},
		{"Empty", "", "resume"},
		{"DotDot", "..", "resume"},
		{"TrailingSlash", "cv.pdf/", "resume"},
		{"HiddenFile", ".bashrc", "resume.bashrc"},
		{"LeadingUnderscores", "__init__.docx", "init__.docx"},
		{"InnerDoubleDot", "a..pdf", "a.pdf"},
		{"ManyDots", "a...b....pdf", "a.b.pdf"},
		{"TrailingDot", "cv.", "cv"},
		// Found by FuzzSafeNameKeepsType: these gave "00.A" and a cut ending
		// in ".00000000A", which a second pass changed.
		{"TrailingDotAfterExt", "00.A.", "00.a"},
		{"CutLeavesExt", strings.Repeat("0", 90) + ".00000000A0", strings.Repeat("0", 90) + ".00000000a"},
		{"DoubleExt", "cv.tar.GZ", "cv.tar.gz"},
		{"KeepDashUnderscore", "jane-doe_cv.pdf", "jane-doe_cv.pdf"},
		{"ControlAndNUL", "cv\x00\n\t.pdf", "cv_.pdf"},
		{"InvalidUTF8", "cv\xff\xfe.pdf", "cv_.pdf"},
		{"LongSuffixIsNotExt", "a." + strings.Repeat("B", 20), "a." + strings.Repeat("B", 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := SafeName(tt.in)
			if got != tt.want {
				t.Errorf("SafeName(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkSafeName(t, tt.in, got)
		})
	}
}

// checkSafeName asserts the invariants every SafeName result must satisfy.
func checkSafeName(t *testing.T, in, got string) {
	t.Helper()
	switch {
	case got == "":
		t.Fatalf("SafeName(%q) is empty", in)
	case len(got) > 100:
		t.Fatalf("SafeName(%q) = %q is %d bytes, want <= 100", in, got, len(got))
	case got[0] == '.':
		t.Fatalf("SafeName(%q) = %q starts with '.'", in, got)
	case strings.Contains(got, ".."):
		t.Fatalf("SafeName(%q) = %q contains \"..\"", in, got)
	}
	for i := 0; i < len(got); i++ {
		switch c := got[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-', c == '_':
		default:
			t.Fatalf("SafeName(%q) = %q contains disallowed byte %q", in, got, c)
		}
	}
}

func TestSafeNameRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(20240601))
	// Bias towards the characters that matter, plus fully random bytes.
	alphabet := []byte("./\\ ._-aZ9\x00\xc3\xa9\xff")
	exts := []string{".pdf", ".PDF", ".doc", ".Docx"}

	for i := range 500 {
		n := rng.Intn(400)
		b := make([]byte, n)
		for j := range b {
			if rng.Intn(2) == 0 {
				b[j] = alphabet[rng.Intn(len(alphabet))]
			} else {
				b[j] = byte(rng.Intn(256))
			}
		}
		in := string(b)
		checkSafeName(t, in, SafeName(in))

		// An accepted extension at the end of the name always survives, lower-cased.
		ext := exts[i%len(exts)]
		got := SafeName(in + ext)
		checkSafeName(t, in+ext, got)
		if !strings.HasSuffix(got, strings.ToLower(ext)) {
			t.Fatalf("SafeName(%q) = %q, want suffix %q", in+ext, got, strings.ToLower(ext))
		}
	}
}

func FuzzSafeName(f *testing.F) {
	for _, s := range []string{
		"", ".", "..", "...", "/", `\`, "../../etc/passwd.pdf", "My CV (final).PDF",
		`C:\Users\me\cv.docx`, "..pdf", "résumé.pdf", "     ", ".bashrc", "a..pdf",
		strings.Repeat("x", 300) + ".pdf", strings.Repeat("a", 95) + "." + strings.Repeat("b", 10) + ".pdf",
		"cv\xff.pdf", "\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkSafeName(t, in, SafeName(in))
	})
}
