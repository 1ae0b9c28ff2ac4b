package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"hackdesk/config"
	"hackdesk/seed"
)

// runSeed is `hackdesk seed`: demo and benchmark data in the dev cluster
// (DATABASE_URL unset, or pointing at it); any other database only with
// --force. Progress bars go to stderr, the summary to stdout.
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
	force := fs.Bool("force", false, "seed a DATABASE_URL that is not the dev cluster (127.0.0.1:15432)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return usageError{}
	}
	if url := config.FromEnv().DatabaseURL; url != "" && !*force {
		if err := seed.CheckTarget(url, devPostgresPort); err != nil {
			return fmt.Errorf("seed: %w; it would add accounts that share one known password. Pass --force to seed it anyway", err)
		}
	}
	store, err := openShellStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
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
