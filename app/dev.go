package app

import (
	"context"
	"io"
	"log/slog"

	"hackdesk/dev/devstack"
	"hackdesk/dev/fakegithub"
	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/version"
)

// DevOptions configure `hackdesk dev`.
type DevOptions struct {
	devstack.Options
	Logger  *slog.Logger
	MailOut io.Writer
}

// Dev is the whole local stack: the services, migrations, the worker and
// the API in one process tree.
type Dev struct {
	*App
	Stack *devstack.Stack
	// FakeGitHub is the stand-in GitHub started when GITHUB_TOKEN is
	// unset; nil when a real code host is configured.
	FakeGitHub *fakegithub.Server
}

// StartDev starts the services, migrates, starts the worker, keeps the
// Temporal Schedules (in the background), starts the outbox dispatcher and
// serves the API. Close stops everything it started.
func StartDev(ctx context.Context, o DevOptions) (_ *Dev, err error) {
	stack, err := devstack.Start(ctx, o.Options)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			stack.Close()
		}
	}()
	cfg := stack.Config
	// One process is the whole stack, and a rebuilt binary replaces the
	// previous one: the workers register as the build "dev" whatever the
	// binary's revision, so the version made current at the first start
	// stays current, and runs in flight carry on after a rebuild as they
	// did before Worker Versioning.
	cfg.BuildID = version.Dev
	if err := devSecrets(&cfg, o.DataDir); err != nil {
		return nil, err
	}
	var fake *fakegithub.Server
	if !cfg.CodeHostConfigured() {
		// No GitHub organization: a stand-in on loopback, so a Foundry
		// launch can be followed end to end.
		fake = fakegithub.New(fakegithub.Options{})
		if err := fake.Start("127.0.0.1:0"); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				fake.Close()
			}
		}()
		cfg.GitHubToken, cfg.GitHubOrg, cfg.GitHubAPIURL = fake.Token(), fake.Org(), fake.URL()
	}
	a, err := Open(ctx, cfg, o.Logger, o.MailOut)
	if err != nil {
		return nil, err
	}
	d := &Dev{App: a, Stack: stack, FakeGitHub: fake}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	if err := a.Migrate(ctx); err != nil {
		return nil, err
	}
	if err := a.Blob.EnsureBucket(ctx); err != nil {
		return nil, err
	}
	if o.ExternalTemporal {
		if err := devstack.RegisterSearchAttributes(ctx, a.Temporal, cfg.TemporalNamespace); err != nil {
			return nil, err
		}
	}
	if err := a.StartWorker(); err != nil {
		return nil, err
	}
	a.KeepSchedules()
	a.StartDispatcher()
	if err := a.Listen(); err != nil {
		return nil, err
	}
	return d, nil
}

// Close stops the API and worker, then the services.
func (d *Dev) Close() {
	d.App.Close()
	if d.FakeGitHub != nil {
		d.FakeGitHub.Close()
	}
	d.Stack.Close()
}

// CodeHostInUse describes the code host Foundry launches on, for the
// start-up banner.
func (d *Dev) CodeHostInUse() string {
	if d.FakeGitHub != nil {
		return d.FakeGitHub.URL() + "   (stand-in GitHub, organization " + d.FakeGitHub.Org() + "; set GITHUB_TOKEN for a real one)"
	}
	api := d.Config.GitHubAPIURL
	if api == "" {
		api = "https://api.github.com"
	}
	return api + "   (organization " + d.Config.GitHubOrg + ")"
}

// DevConfig is the configuration `hackdesk dev` starts from: the
// environment, with PUBLIC_URL following HTTP_ADDR unless set.
func DevConfig(env config.Config, publicURLSet bool) config.Config {
	if !publicURLSet {
		env.PublicURL = "http://" + env.HTTPAddr
	}
	return env
}
