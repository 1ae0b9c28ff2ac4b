package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// testBuild is a front-end build as Vite writes it: entries at the top,
// hashed assets below assets/, precompressed siblings for some. The
// siblings' bytes only need to differ from the original's.
func testBuild() fstest.MapFS {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		"index.html":              f("<!doctype html><title>home</title>"),
		"index.html.br":           f("br(home)"),
		"404.html":                f("<!doctype html><title>not found</title>"),
		"assets/app-a1b2.js":      f("console.log('app')"),
		"assets/app-a1b2.js.br":   f("br(app)"),
		"assets/app-a1b2.js.gz":   f("gz(app)"),
		"assets/site-c3d4.css":    f("body{}"),
		"assets/site-c3d4.css.gz": f("gz(site)"),
		"assets/font-e5f6.woff2":  f("wOF2"),
		"assets/icon-g7h8.svg":    f("<svg/>"),
		"assets/sub/deep-i9.js":   f("deep"),
	}
}

// request runs one request against h with the given header pairs.
func request(h func(http.ResponseWriter, *http.Request), method string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "/", nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h(w, r)
	return w
}

// TestAsset serves each asset as the variant the client's
// Accept-Encoding prefers, with its type, length, immutable caching and
// an ETag that revalidates; HEAD answers the same headers without a body.
func TestAsset(t *testing.T) {
	t.Parallel()
	f := NewFiles(testBuild(), true)
	js := "text/javascript; charset=utf-8"
	for _, c := range []struct {
		name, asset, accept string
		body, coding, ctype string
	}{
		{"Brotli", "app-a1b2.js", "gzip, deflate, br, zstd", "br(app)", "br", js},
		{"Gzip", "app-a1b2.js", "gzip", "gz(app)", "gzip", js},
		{"Identity", "app-a1b2.js", "", "console.log('app')", "", js},
		{"IdentityAsked", "app-a1b2.js", "identity", "console.log('app')", "", js},
		{"BrRefused", "app-a1b2.js", "gzip, br;q=0", "gz(app)", "gzip", js},
		{"GzipPreferred", "app-a1b2.js", "br;q=0.5, gzip;q=0.8", "gz(app)", "gzip", js},
		{"Tie", "app-a1b2.js", "gzip;q=0.5, br;q=0.5", "br(app)", "br", js},
		{"Star", "app-a1b2.js", "*", "br(app)", "br", js},
		{"StarRefused", "app-a1b2.js", "*;q=0", "console.log('app')", "", js},
		{"StarButGzip", "app-a1b2.js", "br;q=0, *", "gz(app)", "gzip", js},
		{"BadWeight", "app-a1b2.js", "br;q=x, GZIP", "gz(app)", "gzip", js},
		{"OnlyGzipSibling", "site-c3d4.css", "br", "body{}", "", "text/css; charset=utf-8"},
		{"OnlyGzipSiblingGzip", "site-c3d4.css", "br, gzip", "gz(site)", "gzip", "text/css; charset=utf-8"},
		{"Font", "font-e5f6.woff2", "br, gzip", "wOF2", "", "font/woff2"},
		{"SVG", "icon-g7h8.svg", "", "<svg/>", "", "image/svg+xml"},
		{"Subdirectory", "sub/deep-i9.js", "", "deep", "", js},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			serve := func(w http.ResponseWriter, r *http.Request) { f.Asset(w, r, c.asset) }
			w := request(serve, http.MethodGet, "Accept-Encoding", c.accept)
			h := w.Header()
			if w.Code != http.StatusOK || w.Body.String() != c.body {
				t.Fatalf("%s (Accept-Encoding %q) = %d %q, want 200 %q", c.asset, c.accept, w.Code, w.Body, c.body)
			}
			for k, want := range map[string]string{
				"Content-Encoding": c.coding,
				"Content-Type":     c.ctype,
				"Content-Length":   strconv.Itoa(len(c.body)),
				"Cache-Control":    AssetCaching,
				"Vary":             "Accept-Encoding",
			} {
				if got := h.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if h.Get("ETag") == "" {
				t.Error("no ETag")
			}
			if w := request(serve, http.MethodGet, "Accept-Encoding", c.accept, "If-None-Match", h.Get("ETag")); w.Code != http.StatusNotModified {
				t.Errorf("If-None-Match its ETag = %d, want 304", w.Code)
			}
			w = request(serve, http.MethodHead, "Accept-Encoding", c.accept)
			if w.Code != http.StatusOK || w.Body.Len() != 0 || w.Header().Get("Content-Length") != strconv.Itoa(len(c.body)) {
				t.Errorf("HEAD = %d, %d bytes, Content-Length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
			}
		})
	}
}

// TestAssetNotFound: only the original names are files; the siblings,
// directories, unclean paths and unknown names are plain 404s.
func TestAssetNotFound(t *testing.T) {
	t.Parallel()
	f := NewFiles(testBuild(), true)
	for _, name := range []string{
		"app-a1b2.js.br", "app-a1b2.js.gz", "site-c3d4.css.gz", "nope.js", "", "sub", "sub/",
		"../index.html", "sub/../app-a1b2.js", "/app-a1b2.js", "./app-a1b2.js", "app-a1b2.js/",
	} {
		w := request(func(w http.ResponseWriter, r *http.Request) { f.Asset(w, r, name) }, http.MethodGet,
			"Accept-Encoding", "br, gzip")
		if w.Code != http.StatusNotFound || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") ||
			w.Header().Get("Cache-Control") != "" || w.Header().Get("Content-Encoding") != "" {
			t.Errorf("asset %q = %d %q (Cache-Control %q, Content-Encoding %q), want a plain 404", name, w.Code,
				w.Header().Get("Content-Type"), w.Header().Get("Cache-Control"), w.Header().Get("Content-Encoding"))
		}
	}
}

// TestServeStatus: a file served with another status than 200 carries no
// ETag and is not revalidated; HEAD has no body; a missing file writes
// nothing and reports false.
func TestServeStatus(t *testing.T) {
	t.Parallel()
	f := NewFiles(testBuild(), true)
	var served bool
	serve := func(name string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			served = f.Serve(w, r, name, http.StatusNotFound, PageCaching)
		}
	}
	w := request(serve("404.html"), http.MethodGet, "If-None-Match", "*")
	if !served || w.Code != http.StatusNotFound || w.Body.String() != "<!doctype html><title>not found</title>" ||
		w.Header().Get("ETag") != "" || w.Header().Get("Cache-Control") != PageCaching ||
		w.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("404.html = %v %d %q, headers %v", served, w.Code, w.Body, w.Header())
	}
	if w := request(serve("404.html"), http.MethodHead); w.Code != http.StatusNotFound || w.Body.Len() != 0 {
		t.Errorf("HEAD 404.html = %d, %d bytes", w.Code, w.Body.Len())
	}
	w = request(serve("missing.html"), http.MethodGet)
	if served || len(w.Header()) != 0 || w.Body.Len() != 0 {
		t.Errorf("missing.html = %v, headers %v, body %q; want nothing written", served, w.Header(), w.Body)
	}
}

// TestCache: a cached build keeps the file it read first; an uncached one
// reads it again on every request, and a file gone is missing.
func TestCache(t *testing.T) {
	t.Parallel()
	for _, cache := range []bool{true, false} {
		build := testBuild()
		f := NewFiles(build, cache)
		page := func(w http.ResponseWriter, r *http.Request) { f.Serve(w, r, "index.html", http.StatusOK, PageCaching) }
		if w := request(page, http.MethodGet); w.Body.String() != "<!doctype html><title>home</title>" {
			t.Fatalf("cache %v: first read %q", cache, w.Body)
		}
		build["index.html"] = &fstest.MapFile{Data: []byte("rebuilt")}
		delete(build, "index.html.br")
		want, wantBr := "<!doctype html><title>home</title>", "br(home)"
		if !cache {
			want, wantBr = "rebuilt", "rebuilt" // the .br sibling is gone too
		}
		if w := request(page, http.MethodGet, "Accept-Encoding", "br"); w.Body.String() != wantBr {
			t.Errorf("cache %v: after a rebuild, accepting br: %q, want %q", cache, w.Body, wantBr)
		}
		if w := request(page, http.MethodGet); w.Body.String() != want {
			t.Errorf("cache %v: after a rebuild %q, want %q", cache, w.Body, want)
		}
	}
}

func TestContentType(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"index.html":          "text/html; charset=utf-8",
		"assets/APP.JS":       "text/javascript; charset=utf-8",
		"assets/x.mjs":        "text/javascript; charset=utf-8",
		"site.webmanifest":    "application/manifest+json",
		"assets/photo.jpeg":   "image/jpeg",
		"assets/font.otf":     "font/otf",
		"assets/blob.unknown": "application/octet-stream",
		"README":              "application/octet-stream",
	} {
		if got := contentType(name); got != want {
			t.Errorf("contentType(%q) = %q, want %q", name, got, want)
		}
	}
}
