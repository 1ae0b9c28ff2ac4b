package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/seed"
	"hackdesk/internal/platform/config"
)

// runSeed is `hackdesk seed`: demo and benchmark data in the dev cluster
// (DATABASE_URL unset, or pointing at it); any other database only with
// --force, and never for --demo. Progress bars go to stderr, the summary to
// stdout.
func runSeed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o seed.Options
	fs.IntVar(&o.Applications, "applications", 200, "applicant accounts, each with a submitted application")
	fs.IntVar(&o.Reviewers, "reviewers", 5, "admin accounts that review")
	fs.IntVar(&o.Reviews, "reviews", 600, "reviews, spread evenly over the reviewers (at most applications × reviewers)")
	fs.Int64Var(&o.Seed, "seed", 1, "generator seed: the same seed gives the same content")
	fs.StringVar(&o.Password, "password", seed.DefaultPassword, "password of every seeded account")
	fs.StringVar(&o.Prefix, "prefix", "", "email prefix keeping runs apart (default: from the seed and the time)")
	edition := fs.String("hackathon", "", "the hackathon edition (an id) the applications and reviews belong to (default: the current one)")
	force := fs.Bool("force", false, "seed a DATABASE_URL that is not the dev cluster (127.0.0.1:15432)")
	demo := fs.Bool("demo", false, "instead: a demo term, a past and a current hackathon, and one account per role with printed passwords (dev cluster only)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return usageError{}
	}
	if *edition != "" {
		id, err := uuid.Parse(*edition)
		if err != nil {
			return fmt.Errorf("seed: --hackathon %q is not an edition id", *edition)
		}
		o.Hackathon = id
	}
	if err := checkSeedTarget(*force, *demo); err != nil {
		return err
	}
	store, err := openShellStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	if *demo {
		return runDemo(ctx, store, stdout)
	}
	res, err := seed.Run(ctx, store.Pool(), o, stderr)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Fprintf(stdout, "seeded %d applications, %d reviewers and %d reviews in %s\n",
		res.Applications, res.Reviewers, res.Reviews, res.Took.Round(10*time.Millisecond))
	if len(res.ReviewerEmails) > 0 {
		fmt.Fprintf(stdout, "sign in as reviewer %s with password %s (every seeded account has it)\n", res.ReviewerEmails[0], o.Password)
	}
	return nil
}

// checkSeedTarget guards `hackdesk seed`. Without DATABASE_URL it seeds the
// dev cluster under .data/; a DATABASE_URL must point at that cluster
// (seed.CheckTarget). --force lifts that for benchmark data, never for
// --demo, whose accounts (a superadmin among them) have printed passwords.
func checkSeedTarget(force, demo bool) error {
	if demo && force {
		return errors.New("seed: --demo runs only on the dev cluster under .data/ and cannot be forced")
	}
	url := config.FromEnv().DatabaseURL
	if url == "" {
		return nil
	}
	err := seed.CheckTarget(url, devPostgresPort)
	switch {
	case err == nil, force:
		return nil
	case demo:
		return fmt.Errorf("seed --demo: %w; demo accounts are made only on the dev cluster under .data/", err)
	}
	return fmt.Errorf("seed: %w; it would add accounts that share one known password. Pass --force to seed it anyway", err)
}

// runDemo is `hackdesk seed --demo`: it prints each account with its new
// password, once.
func runDemo(ctx context.Context, store *db.Store, stdout io.Writer) error {
	res, err := seed.Demo(ctx, store)
	if err != nil {
		return fmt.Errorf("seed --demo: %w", err)
	}
	made := "made"
	if !res.TermCreated {
		made = "exists"
	}
	fmt.Fprintf(stdout, "demo term: %s (%s)\n", res.Term, made)
	made = "made"
	if !res.EditionsCreated {
		made = "exist"
	}
	fmt.Fprintf(stdout, "demo hackathons: %s (closed, decided) and %s (current, open) (%s)\n\n",
		seed.DemoPastHackathon, seed.DemoCurrentHackathon, made)
	tw := tabwriter.NewWriter(stdout, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "EMAIL\tROLE\tPASSWORD\tACCOUNT")
	for _, a := range res.Accounts {
		state := "made"
		if a.Existed {
			state = "existed: password reset"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Email, a.Role, a.Password, state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "\nThe passwords are shown only now; run `hackdesk seed --demo` again for new ones.")
	return nil
}
