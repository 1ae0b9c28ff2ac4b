package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"time"
)

// Client calls one API process as one caller: a bearer token (or none)
// and, optionally, the client address it claims through X-Forwarded-For
// (the processes trust loopback as a proxy).
type Client struct {
	Base, Token, IP string
}

var httpClient = &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// Resp is a finished request.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r Resp) JSON(v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return fmt.Errorf("answer %d %q is not JSON: %w", r.Status, clip(r.Body), err)
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// Do sends a JSON body (or raw bytes with headers "Content-Type", ...).
// A transport error (no answer at all) is returned as the error.
func (c Client) Do(ctx context.Context, method, path string, body any, headers ...string) (Resp, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return Resp{}, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return Resp{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if c.IP != "" {
		req.Header.Set("X-Forwarded-For", c.IP)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return Resp{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return Resp{}, err
	}
	return Resp{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// Expect is Do that fails unless the answer has the wanted status.
func (c Client) Expect(ctx context.Context, want int, method, path string, body any, headers ...string) (Resp, error) {
	r, err := c.Do(ctx, method, path, body, headers...)
	if err != nil {
		return r, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if r.Status != want {
		return r, fmt.Errorf("%s %s = %d, want %d: %s", method, path, r.Status, want, clip(r.Body))
	}
	return r, nil
}

// Upload posts data as the multipart "file" part.
func (c Client) Upload(ctx context.Context, path, filename string, data []byte) (Resp, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+filename+`"`)
	h.Set("Content-Type", "application/octet-stream")
	pw, err := mw.CreatePart(h)
	if err != nil {
		return Resp{}, err
	}
	if _, err := pw.Write(data); err != nil {
		return Resp{}, err
	}
	if err := mw.Close(); err != nil {
		return Resp{}, err
	}
	return c.Do(ctx, http.MethodPost, path, body.Bytes(), "Content-Type", mw.FormDataContentType())
}

// pdf is a small but real PDF.
func pdf(text string) []byte {
	return []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% " + text + "\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}
