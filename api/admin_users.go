package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/account"
)

// listUsers is GET /api/admin/users?q=&role=&page=&page_size=: the
// accounts, by email, each with its exec role of the active term
// (account.ListUsers).
func (s *Server) listUsers(w http.ResponseWriter, r *http.Request) error {
	uq := account.UserQuery{Q: r.URL.Query().Get("q"), Role: r.URL.Query().Get("role")}
	fields := uq.Validate()
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	uq.Limit, uq.Offset = pg.Size, pg.offset()
	items, total, err := account.ListUsers(r.Context(), s.store.Queries, uq)
	if err != nil {
		return err
	}
	writeList(w, "items", items, total, pg)
	return nil
}

// patchUser is PATCH /api/admin/users/{id}: the account's role and exec
// role, with the rules of `hackdesk users grant` (account.UpdateUser); it
// answers the account as the list shows it.
func (s *Server) patchUser(w http.ResponseWriter, r *http.Request) error {
	var req account.UserPatch
	if err := decode(w, r, &req); err != nil {
		return err
	}
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return account.ErrUserNotFound
	}
	ctx := r.Context()
	var u account.AdminUser
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		u, err = account.UpdateUser(ctx, q, id, req)
		return err
	})
	s.sessions.clear() // a new role or exec role applies at once here
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, u)
	return nil
}
