package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"hackdesk/db"
	"hackdesk/dev/devstack"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/config"
)

// runUsers is `hackdesk users create|grant`, for bootstrapping the first
// superadmin and exec roles from the shell.
func runUsers(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "create" && args[0] != "grant") {
		return usageError{}
	}
	fs := flag.NewFlagSet("users "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "account email (required)")
	var name, password, role, exec, subteam, term *string
	if args[0] == "create" {
		name = fs.String("name", "", "display name")
		password = fs.String("password", "", "password (8-128 characters, not easy to guess); read from standard input when omitted")
		role = fs.String("role", "member", "member, admin or superadmin")
	} else {
		role = fs.String("role", "", "member, admin or superadmin")
		exec = fs.String("exec", "", "President, VP, Exec, or none to end the exec role")
		subteam = fs.String("subteam", "", "the VP's subteam")
		term = fs.String("term", "", "the exec role's term (id or name)")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{}
	}
	if *email == "" {
		return fmt.Errorf("users %s: --email is required", args[0])
	}
	store, err := openShellStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()

	if args[0] == "create" {
		if *password == "" {
			if f, ok := stdin.(*os.File); ok && f == os.Stdin {
				fmt.Fprint(stderr, "password: ")
			}
			line, err := bufio.NewReader(stdin).ReadString('\n')
			if err != nil && line == "" {
				return fmt.Errorf("users create: no password given")
			}
			*password = strings.TrimRight(line, "\r\n")
		}
		// Accounts made here are real ones (the first superadmin): their
		// password must pass the same strength rule as a sign-up's.
		if why := auth.CheckNewPassword(*password, *email, *name); why != "" {
			return fmt.Errorf("users create: the password %s", why)
		}
		p, err := account.Create(ctx, store.Queries, *email, *name, *password, *role)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created %s (%s) id %s\n", p.Email, p.Role, p.ID)
		return nil
	}
	if err := account.GrantByEmail(ctx, store, *email, account.Change{Role: *role, Exec: *exec, Subteam: *subteam, Term: *term}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "updated %s\n", *email)
	return nil
}

// openShellStore opens DATABASE_URL or, beside `hackdesk dev`, the dev
// cluster: the database of the shell commands (users, seed).
func openShellStore(ctx context.Context) (*db.Store, error) {
	url := config.FromEnv().DatabaseURL
	if url == "" {
		var err error
		if url, err = devstack.DevDatabaseURL(envOr("HACKDESK_DATA_DIR", ".data"), devPostgresPort, "hackdesk"); err != nil {
			return nil, err
		}
	}
	return db.Open(ctx, url)
}
