package seed

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// ErrNotDevDatabase is returned (wrapped) by CheckTarget for a database
// that is not the local dev cluster.
var ErrNotDevDatabase = errors.New("not the dev database")

// CheckTarget accepts only the dev cluster that `hackdesk dev` runs: a
// database on a loopback address (127.0.0.0/8, ::1, localhost) at devPort.
// Seeding adds hundreds of accounts sharing one known password, so any
// other database (a staging or production server, a cluster on another
// port) is refused unless the operator insists (`hackdesk seed --force`).
func CheckTarget(databaseURL string, devPort int) error {
	cfg, err := pgconn.ParseConfig(databaseURL)
	if err != nil {
		return fmt.Errorf("%w: DATABASE_URL cannot be read: %v", ErrNotDevDatabase, err)
	}
	where := fmt.Sprintf("%s:%d/%s", cfg.Host, cfg.Port, cfg.Database)
	if !loopbackHost(cfg.Host) || int(cfg.Port) != devPort {
		return fmt.Errorf("%w: DATABASE_URL points at %s, not the dev cluster on 127.0.0.1:%d", ErrNotDevDatabase, where, devPort)
	}
	for _, fb := range cfg.Fallbacks {
		if !loopbackHost(fb.Host) || int(fb.Port) != devPort {
			return fmt.Errorf("%w: DATABASE_URL also names %s:%d, not the dev cluster", ErrNotDevDatabase, fb.Host, fb.Port)
		}
	}
	return nil
}

func loopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}
