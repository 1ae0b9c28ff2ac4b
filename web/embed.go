// Package web holds hackdesk's front end: the Vite build in dist/ (HTML
// entries at the top, hashed assets with their .gz and .br siblings under
// assets/), embedded in the binary so that running and testing the server
// need no Node; the serving of a build's files (Files); the API reference
// page (Docs); and the rule for the `next` parameter that pages share with
// the server.
package web

import (
	"embed"
	"io/fs"
	"os"
)

// dist is the committed build. "all:" keeps files whose names start with
// '.' or '_', which bundlers do emit.
//
//go:embed all:dist
var dist embed.FS

// FS returns the embedded build, rooted at dist (so "index.html" and
// "assets/...").
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a valid path; fs.Sub fails only on invalid ones
	}
	return sub
}

// Dir returns a build on disk (WEB_DIR), rooted at dir. Nothing is cached:
// every open reads the file as it is now, so a page reloaded after
// `vite build --watch` rewrote it shows the new build.
func Dir(dir string) fs.FS { return os.DirFS(dir) }
