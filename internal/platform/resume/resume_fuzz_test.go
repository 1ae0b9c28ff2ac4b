package resume

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"runtime"
	"strings"
	"testing"
)

// Hostile files: polyglots, zip bombs and archives too big to list, and
// fuzz targets for what FuzzDetect and FuzzSafeName in resume_test.go do
// not cover (the archive rules, and SafeName keeping the type Detect saw).

// rawEntry is a ZIP entry written as given: deflated bytes and the sizes
// and checksum the archive declares for them, true or not.
type rawEntry struct {
	name       string
	deflated   []byte
	size       uint64 // declared uncompressed size
	crc        uint32
	uncompress []byte // when set, deflated, size and crc are computed from it
}

func rawZip(t testing.TB, entries ...rawEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if e.uncompress != nil {
			e.deflated, e.size, e.crc = deflate(t, e.uncompress), uint64(len(e.uncompress)), crc32.ChecksumIEEE(e.uncompress)
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Deflate, CRC32: e.crc,
			CompressedSize64: uint64(len(e.deflated)), UncompressedSize64: e.size})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.deflated); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func deflate(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zeros32M is 32 MiB of zeros deflated (about 32 KB) with its checksum.
func zeros32M(t testing.TB) rawEntry {
	z := make([]byte, 32<<20)
	return rawEntry{deflated: deflate(t, z), size: uint64(len(z)), crc: crc32.ChecksumIEEE(z)}
}

const documentXML = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>`

func TestDetectHostile(t *testing.T) {
	t.Parallel()
	docx := makeDOCX(t)
	zeros := zeros32M(t)
	bomb := []rawEntry{{name: docxMainPart, uncompress: []byte(documentXML)}}
	for i := range 4 { // 4 × 32 MiB declared, truthfully
		e := zeros
		e.name = "word/media/image" + strings.Repeat("x", i) + ".png"
		bomb = append(bomb, e)
	}
	lying := zeros // a 32 MiB main part that declares 100 bytes
	lying.name, lying.size = docxMainPart, 100
	many := []rawEntry{{name: docxMainPart, uncompress: []byte(documentXML)}}
	for i := range MaxEntries {
		many = append(many, rawEntry{name: "e/" + strings.Repeat("a", i%50) + string(rune('A'+i%26)) + strings.Repeat("b", i/50), uncompress: []byte{}})
	}
	pdfName := rawZip(t, rawEntry{name: "%PDF-1.4 0 obj", uncompress: []byte("x")}, rawEntry{name: docxMainPart, uncompress: []byte(documentXML)})
	for _, tc := range []struct {
		name, filename string
		data           []byte
		reason         string // "" means accepted
	}{
		{"OKDOCX", "cv.docx", docx, ""},
		{"OKDOCXWithBigHonestImage", "cv.docx", rawZip(t, rawEntry{name: docxMainPart, uncompress: []byte(documentXML)},
			func() rawEntry { e := zeros; e.name = "word/media/a.png"; return e }()), ""},
		{"ErrPDFThenZIP", "cv.pdf", concat(minimalPDF, docx), "both a PDF and a ZIP"},
		{"ErrDOCThenZIP", "cv.doc", concat(ole2Header, docx), "both a DOC and a ZIP"},
		{"ErrZIPWithPDFMagicEarly", "cv.docx", pdfName, "both a ZIP archive and a PDF"},
		{"ErrZipBomb", "cv.docx", rawZip(t, bomb...), "expands to more than 64 MiB"},
		{"ErrZipBombOneEntry", "cv.docx", rawZip(t, rawEntry{name: docxMainPart, deflated: zeros.deflated, size: 1 << 40, crc: 0}), "expands to more than"},
		{"ErrLyingSizes", "cv.docx", rawZip(t, lying), "corrupt ZIP"},
		{"ErrBadChecksum", "cv.docx", rawZip(t, rawEntry{name: docxMainPart, deflated: deflate(t, []byte(documentXML)), size: uint64(len(documentXML)), crc: 1}), "corrupt ZIP"},
		{"ErrTooManyEntries", "cv.docx", rawZip(t, many...), "more than 1000 entries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Detect(tc.filename, tc.data)
			if tc.reason == "" {
				if err != nil || got != DOCX {
					t.Fatalf("Detect = %+v, %v; want DOCX", got, err)
				}
				return
			}
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("Detect = %+v, %v; want ErrUnsupported with %q", got, err, tc.reason)
			}
		})
	}
}

// A zip bomb is refused without being inflated: Detect allocates a small
// fraction of what the archive declares, and of what its lying entry
// really inflates to.
func TestDetectBombMemory(t *testing.T) {
	zeros := zeros32M(t)
	lying := zeros
	lying.name, lying.size = docxMainPart, 100
	honest := []rawEntry{{name: docxMainPart, uncompress: []byte(documentXML)}}
	for i := range 64 { // 2 GiB declared
		e := zeros
		e.name = "word/media/" + string(rune('a'+i%26)) + strings.Repeat("z", i/26)
		honest = append(honest, e)
	}
	for name, data := range map[string][]byte{"honest sizes": rawZip(t, honest...), "lying sizes": rawZip(t, lying)} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Detect("cv.docx", data)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s: accepted a zip bomb", name)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
			t.Errorf("%s: Detect allocated %d bytes for a %d-byte archive", name, alloc, len(data))
		}
	}
}

// FuzzDetectArchive builds a ZIP from fuzzed entries (and optionally puts
// a PDF or DOC signature in front of it) and checks the archive rules:
// accepted DOCX ⇒ a ZIP listing word/document.xml whose entries number at
// most MaxEntries and declare at most MaxExpanded bytes, with no "%PDF-" in
// its first 1024 bytes; accepted PDF or DOC ⇒ not also a ZIP archive.
func FuzzDetectArchive(f *testing.F) {
	f.Add("word/document.xml", []byte(documentXML), "_rels/.rels", []byte("<r/>"), uint32(0), byte(0))
	f.Add("word/document.xml", []byte(documentXML), "%PDF-1.4", []byte("x"), uint32(0), byte(0))
	f.Add("word/document.xml", []byte(documentXML), "a", []byte("x"), uint32(1<<31), byte(0))
	f.Add("word/document.xml", []byte(documentXML), "a", []byte("x"), uint32(0), byte(1))
	f.Add("word/document.xml", []byte(documentXML), "a", []byte("x"), uint32(0), byte(2))
	f.Add("xl/workbook.xml", []byte("<w/>"), "word/document.xml", []byte(""), uint32(0), byte(0))
	f.Fuzz(func(t *testing.T, name1 string, body1 []byte, name2 string, body2 []byte, extraSize uint32, prefix byte) {
		second := rawEntry{name: name2, uncompress: body2}
		if extraSize > 0 { // declare more than is there
			second = rawEntry{name: name2, deflated: deflate(t, body2), size: uint64(len(body2)) + uint64(extraSize)*64, crc: crc32.ChecksumIEEE(body2)}
		}
		data := rawZip(t, rawEntry{name: name1, uncompress: body1}, second)
		filename := "cv.docx"
		switch prefix % 3 {
		case 1:
			data, filename = concat(minimalPDF, data), "cv.pdf"
		case 2:
			data, filename = concat(ole2Header, data), "cv.doc"
		}
		got, err := Detect(filename, data)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) || got != (Type{}) {
				t.Fatalf("Detect = %+v, %v", got, err)
			}
			return
		}
		zr, zerr := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if got != DOCX {
			if zerr == nil {
				t.Fatalf("accepted %s %q that is also a ZIP archive", got.Ext, data)
			}
			return
		}
		if zerr != nil || len(zr.File) > MaxEntries {
			t.Fatalf("accepted DOCX: %v, %d entries", zerr, len(zr.File))
		}
		var total uint64
		main := false
		for _, e := range zr.File {
			total += e.UncompressedSize64
			main = main || e.Name == docxMainPart
		}
		if !main || total > MaxExpanded || bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
			t.Fatalf("accepted DOCX: main part %v, %d bytes declared, PDF signature early: %v", main, total,
				bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")))
		}
	})
}

// FuzzSafeNameKeepsType: the stored name keeps what Detect accepted
// (Detect on SafeName's result gives the same type), and SafeName is
// idempotent.
func FuzzSafeNameKeepsType(f *testing.F) {
	for _, s := range []string{"cv.pdf", "../../x.pdf", "/etc/passwd.PDF", "a\x00.pdf", ".pdf", "..pdf", `C:\a\b.Pdf`,
		"résumé.pdf", strings.Repeat("x", 300) + ".pdf", "a/.pdf", " .pdf", "a .pdf", "\xff.pdf", "cv.pdf."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, filename string) {
		safe := SafeName(filename)
		if again := SafeName(safe); again != safe {
			t.Fatalf("SafeName(%q) = %q, then %q", filename, safe, again)
		}
		got, err := Detect(filename, minimalPDF)
		if err != nil {
			return
		}
		if kept, err := Detect(safe, minimalPDF); err != nil || kept != got {
			t.Fatalf("Detect(%q) = %s, but Detect(SafeName = %q) = %+v, %v", filename, got.Ext, safe, kept, err)
		}
	})
}
