package api

import (
	"net/http"
	"strconv"

	"hackdesk/internal/platform/apperr"
)

// page is the parsed ?page=&page_size= of a list request. Every list
// endpoint pages the same way (parsePage).
type page struct {
	Number int32
	Size   int32
}

func (p page) offset() int32 { return (p.Number - 1) * p.Size }

// parsePage reads page (from 1) and page_size (10 to 50, default 25).
func parsePage(r *http.Request, fields apperr.Fields) page {
	p := page{Number: 1, Size: 25}
	if v := r.URL.Query().Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1_000_000 {
			fields.Add("page", "must be a whole number from 1")
		} else {
			p.Number = int32(n)
		}
	}
	if v := r.URL.Query().Get("page_size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 10 || n > 50 {
			fields.Add("page_size", "must be a whole number from 10 to 50")
		} else {
			p.Size = int32(n)
		}
	}
	return p
}

// optional returns a pointer to the query parameter's value, or nil when it
// is absent or empty.
func optional(r *http.Request, name string) *string {
	if v := r.URL.Query().Get(name); v != "" {
		return &v
	}
	return nil
}

// pageOf is p's page of items, for the short lists read whole (terms, a
// term's exec forms): empty past the end.
func pageOf[T any](items []T, p page) []T {
	start := min(int(p.offset()), len(items))
	end := min(start+int(p.Size), len(items))
	return items[start:end]
}

// writeList answers one page of a list: the items under key (the service
// document names it per list: "applications", "items", …), the total
// across every page, and the page asked for. Every list endpoint answers
// through it, so the envelope is written once.
func writeList[T any, N int | int32 | int64](w http.ResponseWriter, key string, items []T, total N, p page) {
	if items == nil {
		items = []T{}
	}
	writeJSON(w, http.StatusOK, map[string]any{key: items, "total": total, "page": p.Number, "page_size": p.Size})
}
