package e2e

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"runtime"
	"strings"
	"testing"
	"time"

	"hackdesk/app"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/resume"
)

// The upload attack set: hostile files and hostile clients against the
// resume and headshot uploads. Every refusal has its exact status, and
// after it the previous upload is still the current one and no object was
// written for the refused file.

// Short deadlines, so slow clients are cut off within the test: requests
// get attackReadTimeout (headers included), upload bodies attackUploadTimeout.
const (
	attackReadTimeout   = 1500 * time.Millisecond
	attackUploadTimeout = 4 * time.Second
)

func attackApp(t *testing.T) *app.App {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.ReadTimeout, cfg.UploadTimeout = attackReadTimeout, attackUploadTimeout
	return testenv.App(t, cfg)
}

// multipartBody is a form with one "file" part carrying the given
// Content-Disposition (and extra part headers, name then value).
func multipartBody(t *testing.T, disposition string, data []byte, extra ...string) ([]byte, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", disposition)
	h.Set("Content-Type", "application/octet-stream")
	for i := 0; i+1 < len(extra); i += 2 {
		h.Set(extra[i], extra[i+1])
	}
	pw, err := mw.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return body.Bytes(), mw.FormDataContentType()
}

func fileDisposition(filename string) string {
	return `form-data; name="file"; filename="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(filename) + `"`
}

// deflated is data compressed as a ZIP entry stores it.
func deflated(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipEntryRaw is a ZIP entry written with the sizes it declares, true or not.
type zipEntryRaw struct {
	name     string
	deflated []byte
	size     uint64
	crc      uint32
}

func zipRaw(t *testing.T, entries ...zipEntryRaw) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
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

func honestEntry(t *testing.T, name string, data []byte) zipEntryRaw {
	return zipEntryRaw{name: name, deflated: deflated(t, data), size: uint64(len(data)), crc: crc32.ChecksumIEEE(data)}
}

const wordXML = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>`

// zipBombs are DOCX files that inflate far beyond their size: one whose
// entries say so (8 × 32 MiB of zeros in a ~300 KB file) and one whose main
// part claims 100 bytes and inflates to 32 MiB.
func zipBombs(t *testing.T) (honest, lying []byte) {
	zeros := make([]byte, 32<<20)
	z := zipEntryRaw{deflated: deflated(t, zeros), size: uint64(len(zeros)), crc: crc32.ChecksumIEEE(zeros)}
	entries := []zipEntryRaw{honestEntry(t, "[Content_Types].xml", []byte("<Types/>")), honestEntry(t, "word/document.xml", []byte(wordXML))}
	for i := range 8 {
		e := z
		e.name = fmt.Sprintf("word/media/image%d.png", i)
		entries = append(entries, e)
	}
	main := z
	main.name, main.size = "word/document.xml", 100
	return zipRaw(t, entries...), zipRaw(t, honestEntry(t, "[Content_Types].xml", []byte("<Types/>")), main)
}

// keeps asserts the caller's resume is still key with the bytes want, and
// that nothing was stored under refused (an object key).
func keeps(t *testing.T, a *app.App, me *client, key string, want []byte, refused string) {
	t.Helper()
	s := resumeLink(t, me)
	if s.Key == nil || *s.Key != key {
		t.Fatalf("the current resume is %v, want %s", s.Key, key)
	}
	if got, _ := download(t, *s.URL); !bytes.Equal(got, want) {
		t.Fatalf("the current resume's bytes changed")
	}
	if refused != "" && refused != key {
		if ok, err := a.Blob.Exists(context.Background(), refused); err != nil || ok {
			t.Fatalf("an object was stored at %s for a refused upload (%v)", refused, err)
		}
	}
}

func TestUploadAttackResumes(t *testing.T) {
	t.Parallel()
	a := attackApp(t)
	anon := &client{t: t, base: a.URL()}
	me, myID := member(t, a, anon, "mallory@example.com", "Mallory")
	createApplication(t, me, myID)
	original := pdfFile("original")
	if r := me.upload("original.pdf", original); r.Status != http.StatusOK {
		t.Fatalf("first upload = %d %s", r.Status, r.Body)
	}
	key := myID.String() + "/original.pdf"
	docx := docxFile(t)
	honestBomb, lyingBomb := zipBombs(t)
	pdfFirstEntry := zipRaw(t, honestEntry(t, "%PDF-1.7 1 0 obj", []byte("x")), honestEntry(t, "word/document.xml", []byte(wordXML)))

	for _, tc := range []struct {
		name, filename string
		data           []byte
		status         int
		title          string
	}{
		{"PolyglotPDFZIPAsPDF", "poly.pdf", append(pdfFile("p"), docx...), 415, "Unsupported file type"},
		{"PolyglotPDFZIPAsDOCX", "poly.docx", append(pdfFile("p"), docx...), 415, "Unsupported file type"},
		{"PolyglotZIPWithPDFSignature", "poly2.docx", pdfFirstEntry, 415, "Unsupported file type"},
		{"PolyglotDOCZIP", "poly.doc", append(docFile(), docx...), 415, "Unsupported file type"},
		{"ZipBombDOCX", "bomb.docx", honestBomb, 415, "Unsupported file type"},
		{"ZipBombLyingSizes", "liar.docx", lyingBomb, 415, "Unsupported file type"},
		{"EmptyFile", "empty.pdf", nil, 400, "Validation failed"},
		{"EmptyFileNoName", "", nil, 400, "Validation failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			r := me.upload(tc.filename, tc.data)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if r.Status != tc.status || r.Map(t)["error"] != tc.title {
				t.Fatalf("%s = %d %s, want %d %q", tc.filename, r.Status, r.Body, tc.status, tc.title)
			}
			// The API runs in this process: a bomb inflated in memory would
			// show as at least the 32 MiB of one entry.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 24<<20 {
				t.Errorf("the upload allocated %d MiB", alloc>>20)
			}
			keeps(t, a, me, key, original, myID.String()+"/"+resume.SafeName(tc.filename))
		})
	}

	// Names: the object key is always <profile>/<safe base name>, never a
	// path elsewhere in the bucket. Each accepted upload becomes current.
	for _, tc := range []struct {
		name, disposition string
		want              string // the key's name part; "" means refused with 400
	}{
		{"Traversal", fileDisposition("../../x.pdf"), "x.pdf"},
		{"TraversalBackslash", fileDisposition(`..\..\x.pdf`), "x.pdf"},
		{"Absolute", fileDisposition("/etc/passwd.pdf"), "passwd.pdf"},
		{"WindowsAbsolute", fileDisposition(`C:\Windows\System32\x.pdf`), "x.pdf"},
		{"EncodedTraversal", `form-data; name="file"; filename*=UTF-8''..%2F..%2Fenc.pdf`, "enc.pdf"},
		{"EncodedNUL", `form-data; name="file"; filename*=UTF-8''nul%00.pdf`, "nul_.pdf"},
		{"DotsOnly", fileDisposition("...pdf"), "resume.pdf"},
		{"Long", fileDisposition(strings.Repeat("a", 1000) + ".pdf"), strings.Repeat("a", 96) + ".pdf"},
		{"RawNUL", "form-data; name=\"file\"; filename=\"x\x00.pdf\"", ""},
		{"HugeName", fileDisposition(strings.Repeat("b", 20000) + ".pdf"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := *resumeLink(t, me).Key
			prevBytes, _ := download(t, *resumeLink(t, me).URL)
			data := pdfFile(tc.name)
			body, ct := multipartBody(t, tc.disposition, data)
			r := me.do(http.MethodPost, "/api/applications/resumes", body, "Content-Type", ct)
			if tc.want == "" {
				if r.Status != http.StatusBadRequest {
					t.Fatalf("status %d %s, want 400", r.Status, r.Body)
				}
				keeps(t, a, me, prev, prevBytes, "")
				return
			}
			var up struct {
				Key string `json:"key"`
			}
			if r.Status != http.StatusOK {
				t.Fatalf("status %d %s, want 200", r.Status, r.Body)
			}
			r.JSON(t, &up)
			if up.Key != myID.String()+"/"+tc.want {
				t.Fatalf("key %q, want %s/%s", up.Key, myID, tc.want)
			}
			keeps(t, a, me, up.Key, data, "")
			if ok, _ := a.Blob.Exists(context.Background(), tc.want); ok {
				t.Fatalf("an object appeared at the bucket's root: %s", tc.want)
			}
		})
	}
	key = *resumeLink(t, me).Key
	current, _ := download(t, *resumeLink(t, me).URL)

	t.Run("OversizedPartHeaders", func(t *testing.T) {
		body, ct := multipartBody(t, fileDisposition("pad.pdf"), pdfFile("pad"), "X-Pad", strings.Repeat("p", 9<<10))
		r := me.do(http.MethodPost, "/api/applications/resumes", body, "Content-Type", ct)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Map(t)["message"].(string), "8 KiB") {
			t.Fatalf("a 9 KiB part header = %d %s, want 400", r.Status, r.Body)
		}
		keeps(t, a, me, key, current, myID.String()+"/pad.pdf")
	})
	t.Run("OversizedRequestHeaders", func(t *testing.T) {
		body, ct := multipartBody(t, fileDisposition("hdr.pdf"), pdfFile("hdr"))
		conn := dialAPI(t, a)
		go func() { // the server answers before reading it all; write errors are expected
			fmt.Fprintf(conn, "POST /api/applications/resumes HTTP/1.1\r\nHost: hackdesk.test\r\nAuthorization: Bearer %s\r\n"+
				"Content-Type: %s\r\nContent-Length: %d\r\nX-Pad: %s\r\n\r\n%s", me.token, ct, len(body), strings.Repeat("h", 2<<20), body)
		}()
		if resp := readResponse(t, conn); resp.status != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("2 MiB of request headers = %d, want 431", resp.status)
		}
		keeps(t, a, me, key, current, myID.String()+"/hdr.pdf")
	})

	// Slow clients, on raw connections.
	t.Run("SlowHeaders", func(t *testing.T) {
		conn := dialAPI(t, a)
		start := time.Now()
		fmt.Fprintf(conn, "POST /api/applications/resumes HTTP/1.1\r\nHost: hackdesk.test\r\nAuthorization: Bearer %s\r\n", me.token)
		got, _ := io.ReadAll(conn) // the server hangs up; Go's server answers nothing then
		if took := time.Since(start); took > attackReadTimeout+5*time.Second || len(got) != 0 {
			t.Fatalf("headers never finished: connection closed after %s with %q", took, got)
		}
		keeps(t, a, me, key, current, "")
	})
	t.Run("SlowBody", func(t *testing.T) {
		body, ct := multipartBody(t, fileDisposition("slow.pdf"), pdfFile("slow"))
		conn := dialAPI(t, a)
		writeHead(t, conn, me.token, "/api/applications/resumes", ct, len(body))
		start := time.Now()
		if _, err := conn.Write(body[:len(body)/2]); err != nil {
			t.Fatal(err)
		}
		resp := readResponse(t, conn)
		took := time.Since(start)
		if resp.status != http.StatusRequestTimeout || resp.title != "Request timeout" {
			t.Fatalf("stalled upload = %d %q, want 408", resp.status, resp.title)
		}
		// Cut off by the upload deadline, not the shorter request one.
		if took < attackUploadTimeout-500*time.Millisecond || took > attackUploadTimeout+10*time.Second {
			t.Fatalf("stalled upload cut off after %s, want about %s", took, attackUploadTimeout)
		}
		keeps(t, a, me, key, current, myID.String()+"/slow.pdf")
	})
	t.Run("SlowButSteadyBody", func(t *testing.T) {
		// Longer than the request deadline, within the upload deadline.
		data := pdfFile("steady")
		body, ct := multipartBody(t, fileDisposition("steady.pdf"), data)
		conn := dialAPI(t, a)
		writeHead(t, conn, me.token, "/api/applications/resumes", ct, len(body))
		chunk := len(body)/10 + 1
		for i := 0; i < len(body); i += chunk {
			time.Sleep(250 * time.Millisecond)
			if _, err := conn.Write(body[i:min(i+chunk, len(body))]); err != nil {
				t.Fatal(err)
			}
		}
		if resp := readResponse(t, conn); resp.status != http.StatusOK {
			t.Fatalf("a slow upload within its deadline = %d %q", resp.status, resp.title)
		}
		keeps(t, a, me, myID.String()+"/steady.pdf", data, "")
	})
	t.Run("SlowJSONBody", func(t *testing.T) {
		conn := dialAPI(t, a)
		writeHead(t, conn, me.token, "/api/applications", "application/json", 100)
		start := time.Now()
		if _, err := conn.Write([]byte(`{"country":`)); err != nil {
			t.Fatal(err)
		}
		resp := readResponse(t, conn)
		if resp.status != http.StatusRequestTimeout || time.Since(start) > attackReadTimeout+5*time.Second {
			t.Fatalf("stalled JSON body = %d %q after %s, want 408", resp.status, resp.title, time.Since(start))
		}
	})
}

// TestUploadAttackHeadshots runs the client attacks against a headshot
// upload: the stored headshot stays byte for byte what it was.
func TestUploadAttackHeadshots(t *testing.T) {
	t.Parallel()
	a := attackApp(t)
	anon := &client{t: t, base: a.URL()}
	super := as(t, a, anon, account(t, a, "root@example.com", "Root", "superadmin"))
	now := time.Now().UTC().Truncate(time.Second)
	term := termWithWindows(t, super, "2026-2027", "2026-09-01", "2027-08-31",
		[2]time.Time{now.Add(-time.Hour), now.Add(24 * time.Hour)}, [2]time.Time{now.Add(2 * time.Hour), now.Add(48 * time.Hour)})
	hiringPosition(t, super, term, "VP Design", "design", "vp")
	vp := as(t, a, anon, execAccount(t, a, "vp@example.com", "admin", "VP", "design", &term))
	const path = "/api/onboarding/headshot"
	good := pngFile()
	var up struct {
		Key string `json:"key"`
	}
	vp.uploadHeadshot(path, good, "true").JSON(t, &up)
	intact := func(t *testing.T) {
		t.Helper()
		if !bytes.Equal(objectBytes(t, a, up.Key), good) {
			t.Fatal("the stored headshot changed")
		}
		if ok, _ := a.Blob.Exists(context.Background(), strings.TrimSuffix(up.Key, ".png")+".jpg"); ok {
			t.Fatal("a headshot of the other type was stored")
		}
	}

	t.Run("EmptyFile", func(t *testing.T) {
		if r := vp.uploadHeadshot(path, []byte{}, "true"); r.Status != http.StatusBadRequest || r.Map(t)["details"].(map[string]any)["file"] != "is empty" {
			t.Fatalf("empty headshot = %d %s, want 400", r.Status, r.Body)
		}
		intact(t)
	})
	t.Run("OversizedPartHeaders", func(t *testing.T) {
		body, ct := multipartBody(t, fileDisposition("me.jpg"), jpegFile(), "X-Pad", strings.Repeat("p", 9<<10))
		if r := vp.do(http.MethodPost, path, body, "Content-Type", ct); r.Status != http.StatusBadRequest {
			t.Fatalf("a 9 KiB part header = %d %s, want 400", r.Status, r.Body)
		}
		intact(t)
	})
	t.Run("SlowBody", func(t *testing.T) {
		body, ct := multipartBody(t, fileDisposition("me.jpg"), jpegFile())
		conn := dialAPI(t, a)
		writeHead(t, conn, vp.token, path, ct, len(body))
		if _, err := conn.Write(body[:len(body)/2]); err != nil {
			t.Fatal(err)
		}
		if resp := readResponse(t, conn); resp.status != http.StatusRequestTimeout {
			t.Fatalf("stalled headshot = %d %q, want 408", resp.status, resp.title)
		}
		intact(t)
	})
}

func dialAPI(t *testing.T, a *app.App) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", a.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	// A safety net: no answer within a minute fails the test.
	if err := conn.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// writeHead writes a POST's request line and headers (PATCH for the JSON
// route) with the declared body length.
func writeHead(t *testing.T, conn net.Conn, token, path, contentType string, length int) {
	t.Helper()
	method := http.MethodPost
	if contentType == "application/json" {
		method = http.MethodPatch
	}
	_, err := fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: hackdesk.test\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
		method, path, token, contentType, length)
	if err != nil {
		t.Fatal(err)
	}
}

type rawAnswer struct {
	status int
	title  string
}

func readResponse(t *testing.T, conn net.Conn) rawAnswer {
	t.Helper()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	var body struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return rawAnswer{status: resp.StatusCode, title: body.Error}
}

// TestBadInputNUL: text holding NUL, which no PostgreSQL text value can
// hold, is a client error wherever it comes in: 400 from the JSON decoder
// for a body, 400 from the store for a query parameter (both were 500).
func TestBadInputNUL(t *testing.T) {
	t.Parallel()
	a := attackApp(t)
	anon := &client{t: t, base: a.URL()}
	me, myID := member(t, a, anon, "nul@example.com", "Nul")
	createApplication(t, me, myID)
	r := me.expect(http.StatusBadRequest, "PATCH", "/api/applications", `{"university":"a\u0000b"}`)
	if title, msg := errorOf(t, r); title != "Invalid JSON" || !strings.Contains(msg, "NUL") {
		t.Fatalf("NUL in a body: %q %q", title, msg)
	}
	me.expect(http.StatusOK, "PATCH", "/api/applications", `{"university":"a\\u0000b"}`) // an escaped backslash, no NUL
	me.expect(http.StatusBadRequest, "GET", "/api/users/emails?q=ada%00x", nil)
}
