package e2e

import (
	"archive/zip"
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"testing"
)

// pdfFile is a small but real PDF.
func pdfFile(text string) []byte {
	return []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% " + text + "\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}

// docxFile is a minimal real Word document (a ZIP with word/document.xml).
func docxFile(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"_rels/.rels":         `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>`,
		"word/document.xml":   `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>`,
	} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// docFile starts with the OLE2 compound-file signature of a .doc.
func docFile() []byte {
	return append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 4096)...)
}

// pngFile is the start of a PNG image.
func pngFile() []byte {
	return append([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, make([]byte, 64)...)
}

// upload posts data as the multipart "file" part of POST /api/applications/resumes.
func (c *client) upload(filename string, data []byte) response {
	c.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+filename+`"`)
	h.Set("Content-Type", "application/octet-stream")
	pw, err := mw.CreatePart(h)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := pw.Write(data); err != nil {
		c.t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		c.t.Fatal(err)
	}
	return c.do(http.MethodPost, "/api/applications/resumes", body.Bytes(), "Content-Type", mw.FormDataContentType())
}
