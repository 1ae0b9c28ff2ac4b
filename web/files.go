package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Files serves the files of a front-end build: HTML entries at its top,
// hashed assets under assets/, each text file with .br and .gz siblings
// compressed at build time. Each answer is the variant the client's
// Accept-Encoding prefers, with an ETag (If-None-Match answers 304).
type Files struct {
	fsys fs.FS
	// cache keeps every file once read, with its variants: an embedded
	// build never changes. Nil for a build on disk (WEB_DIR), which is read
	// on every request. Only files that exist are kept, so the cache is
	// bounded by the build whatever names clients ask for.
	cache *sync.Map // name → *file
}

// NewFiles serves the build fsys. With cache, each file is read once and
// kept (an embedded build never changes); without, every request reads
// the file as it is now (a build on disk that `vite build --watch`
// rewrites).
func NewFiles(fsys fs.FS, cache bool) *Files {
	f := &Files{fsys: fsys}
	if cache {
		f.cache = &sync.Map{}
	}
	return f
}

// Cache-Control of the answers: hashed assets never change under their
// name; the HTML names the current assets, so a browser asks again every
// time (and gets a 304 while it has not changed).
const (
	AssetCaching = "public, max-age=31536000, immutable"
	PageCaching  = "no-cache"
)

// file is one file of the build and the precompressed variants it has,
// by Content-Encoding ("" is the file itself).
type file struct {
	variants map[string]variant
}

// variant is the bytes sent for one encoding and their entity tag.
type variant struct {
	data []byte
	etag string
}

// encodings are the precompressed siblings a file may have, in the order
// preferred when a client accepts several equally.
var encodings = [...]struct{ coding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// load reads a file of the build and its precompressed siblings; false
// when the build has no such file (or it cannot be read: a build being
// rewritten under WEB_DIR answers 404, never 500).
func (f *Files) load(name string) (*file, bool) {
	if f.cache != nil {
		if v, ok := f.cache.Load(name); ok {
			return v.(*file), true
		}
	}
	data, err := fs.ReadFile(f.fsys, name)
	if err != nil {
		return nil, false
	}
	wf := &file{variants: map[string]variant{"": newVariant(data)}}
	for _, e := range encodings {
		if data, err := fs.ReadFile(f.fsys, name+e.suffix); err == nil {
			wf.variants[e.coding] = newVariant(data)
		}
	}
	if f.cache != nil {
		f.cache.Store(name, wf)
	}
	return wf, true
}

func newVariant(data []byte) variant {
	sum := sha256.Sum256(data)
	return variant{data: data, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`}
}

// Serve answers with the named file of the build and status: the variant
// the client's Accept-Encoding prefers, its Content-Type by the file's own
// extension, Content-Length, Vary: Accept-Encoding and the given
// Cache-Control. A 200 also carries an ETag and answers If-None-Match with
// 304. It returns false, having written nothing, when the build has no
// such file.
func (f *Files) Serve(w http.ResponseWriter, r *http.Request, name string, status int, caching string) bool {
	wf, ok := f.load(name)
	if !ok {
		return false
	}
	coding := negotiate(r.Header.Get("Accept-Encoding"), wf)
	v := wf.variants[coding]
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("Cache-Control", caching)
	h.Set("Vary", "Accept-Encoding")
	if coding != "" {
		h.Set("Content-Encoding", coding)
	}
	// ServeContent leaves Content-Length out of an encoded answer, where
	// a Range would count encoded bytes; Range is not served (the whole
	// file is small and immutable or no-cache), so the length is the
	// variant's.
	h.Set("Content-Length", strconv.Itoa(len(v.data)))
	if status == http.StatusOK {
		// ServeContent answers HEAD and If-None-Match (304).
		h.Set("ETag", v.etag)
		r.Header.Del("Range")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(v.data))
		return true
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(v.data)
	}
	return true
}

// negotiate picks the Content-Encoding to send a file with, given the
// request's Accept-Encoding: among the precompressed variants the file
// has, the coding with the highest q value above 0 (a coding not listed
// takes the q of "*", if listed), brotli before gzip on a tie; "" (the
// file itself) when the client accepts none of them or sent no header.
func negotiate(accept string, wf *file) string {
	if strings.TrimSpace(accept) == "" {
		return ""
	}
	q := map[string]float64{}
	for _, item := range strings.Split(accept, ",") {
		coding, params, _ := strings.Cut(item, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(p, "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0 // a weight that does not parse accepts nothing
			}
			weight = f
		}
		if _, seen := q[coding]; !seen {
			q[coding] = weight
		}
	}
	best, bestQ := "", 0.0
	for _, e := range encodings {
		w, listed := q[e.coding]
		if !listed {
			w = q["*"]
		}
		if _, has := wf.variants[e.coding]; has && w > bestQ {
			best, bestQ = e.coding, w
		}
	}
	return best
}

// Asset answers with the file assets/name of the build, precompressed
// when the client accepts it, cached as immutable. Only the original names
// are served: the .gz and .br siblings are variants of a file, never files
// of their own type. Anything else is a plain 404 (a script or style that
// is not there is not a page).
func (f *Files) Asset(w http.ResponseWriter, r *http.Request, name string) {
	if !validAssetName(name) || !f.Serve(w, r, "assets/"+name, http.StatusOK, AssetCaching) {
		http.Error(w, "Not found", http.StatusNotFound)
	}
}

// validAssetName reports whether name (the path below /assets/) may name
// a file of the build: a clean relative path, and not a precompressed
// sibling, which is served only as a variant of its original.
func validAssetName(name string) bool {
	if name == "" || !fs.ValidPath(name) {
		return false
	}
	for _, e := range encodings {
		if strings.HasSuffix(name, e.suffix) {
			return false
		}
	}
	return true
}

// contentTypes are the types of the files a Vite build writes, fixed here
// rather than read from the system's MIME tables, which differ between
// machines.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".txt":         "text/plain; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".woff":        "font/woff",
	".ttf":         "font/ttf",
	".otf":         "font/otf",
}

// contentType is the type of a file of the build by its extension; an
// unknown one is application/octet-stream (the server sends nosniff).
func contentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}
