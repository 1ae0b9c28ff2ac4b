package api

import "net/http"

// siteLinks is GET /api/site (public): the links the pages show that
// come from the configuration: the code of conduct the application asks
// applicants to accept (CODE_OF_CONDUCT_URL) and the campus shop's
// membership page (SHOP_URL; null when there is none).
func (s *Server) siteLinks(w http.ResponseWriter, r *http.Request) error {
	var shop *string
	if s.cfg.ShopURL != "" {
		shop = &s.cfg.ShopURL
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSON(w, http.StatusOK, map[string]any{"code_of_conduct_url": s.cfg.CodeOfConductURL, "shop_url": shop})
	return nil
}
