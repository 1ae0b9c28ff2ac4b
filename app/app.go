// Package app wires hackdesk's parts together. It is what the hackdesk
// subcommands run and what end-to-end tests start on port 0.
package app

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"hackdesk/internal/platform/payloadcodec"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	sdklog "go.temporal.io/sdk/log"
	sdkworker "go.temporal.io/sdk/worker"

	"hackdesk/activities"
	"hackdesk/api"
	"hackdesk/db"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/feature/checkin"
	"hackdesk/internal/platform/codehost"
	"hackdesk/internal/platform/config"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/metrics"
	"hackdesk/internal/platform/searchattrs"
	"hackdesk/internal/platform/storage"
	"hackdesk/outbox"
	"hackdesk/worker"
)

// App holds the connections every role shares.
type App struct {
	Config   config.Config
	Log      *slog.Logger
	Store    *db.Store
	Temporal client.Client
	// Codec encrypts every payload the client writes (TEMPORAL_PAYLOAD_KEYS);
	// the API's codec server decodes with it for the Temporal UI.
	Codec  *payloadcodec.Codec
	Blob   *storage.Store
	Mailer mail.Sender
	// CodeHost is the code host Foundry launches on; nil without
	// GITHUB_TOKEN (the Foundry routes then answer 503).
	CodeHost *codehost.Client
	// Metrics is the process's Prometheus registry and instruments,
	// served on METRICS_ADDR; nil when that is unset (nothing counted).
	Metrics *metrics.Metrics
	metrics appMetrics
	// SearchAttributes checks that the Temporal namespace has the
	// workflows' search attributes (at Open, then on /readyz).
	SearchAttributes *searchattrs.Checker
	// Tracer is the tracer provider; nil when tracing is off.
	Tracer          trace.TracerProvider
	shutdownTracing func()
	opts            openOptions

	worker sdkworker.Worker
	// broadcastWorker serves the broadcast task queue, rate limited.
	broadcastWorker sdkworker.Worker
	// inFlight counts the activities the workers run, so Close can wait
	// for their bookkeeping before it closes the pool.
	inFlight *activities.InFlight
	// stopTimeout is the workers' stop timeout (zero: worker.StopTimeout).
	stopTimeout time.Duration
	// background is the context of the app's background loops (Worker
	// Versioning, the schedules): cancelled by Close, which waits for
	// them (backgroundWG) before closing the connections.
	background     context.Context
	stopBackground context.CancelFunc
	backgroundWG   sync.WaitGroup
	// stopDispatch ends the outbox dispatcher; dispatched is closed when
	// it has stopped.
	stopDispatch context.CancelFunc
	dispatched   chan struct{}
	server       *http.Server
	served       chan error
	ln           net.Listener
}

// Open connects to the database, Temporal and the object store. mailOut is
// where the log mail driver prints. Tracing (app/tracing.go) is on with
// OTEL_EXPORTER_OTLP_ENDPOINT or WithTracerProvider.
func Open(ctx context.Context, cfg config.Config, logger *slog.Logger, mailOut io.Writer, opts ...Option) (*App, error) {
	a := &App{Config: cfg, Log: logger, inFlight: activities.NewInFlight()}
	a.background, a.stopBackground = context.WithCancel(context.Background())
	for _, o := range opts {
		o(&a.opts)
	}
	a.stopTimeout = a.opts.stopTimeout
	if err := a.openTracing(ctx); err != nil {
		return nil, err
	}
	store, err := db.Open(ctx, cfg.DatabaseURL, a.dbOptions()...)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Store = store
	if err := a.openMetrics(); err != nil {
		a.Close()
		return nil, err
	}
	conn, creds, err := temporalTLS(cfg)
	if err != nil {
		a.Close()
		return nil, err
	}
	interceptors, err := a.temporalInterceptors()
	if err != nil {
		a.Close()
		return nil, err
	}
	codec, err := payloadcodec.FromEnv(cfg.TemporalPayloadKeys)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Codec = codec
	dc := payloadcodec.DataConverter(codec)
	a.Temporal, err = client.DialContext(ctx, client.Options{
		DataConverter:     dc,
		FailureConverter:  payloadcodec.FailureConverter(dc),
		HostPort:          cfg.TemporalAddress,
		Namespace:         cfg.TemporalNamespace,
		Logger:            sdklog.NewStructuredLogger(a.Log.With("component", "temporal")),
		ConnectionOptions: conn,
		Credentials:       creds,
		MetricsHandler:    a.metrics.temporal,
		Interceptors:      interceptors,
	})
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("connect to Temporal at %s: %w", cfg.TemporalAddress, err)
	}
	a.Metrics.WatchPollers(a.readPollers)
	// Said in the log now (and on /readyz) rather than by the outbox's
	// lag alert once starts have failed for a while.
	a.SearchAttributes = searchattrs.New(a.Temporal, cfg.TemporalNamespace, a.Log)
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	a.SearchAttributes.Check(sctx)
	cancel()
	a.serveReadyz()
	a.Blob = storage.New(cfg)
	a.Mailer, err = mail.NewSender(ctx, cfg, mailOut)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Mailer = a.Metrics.CountEmails(a.Mailer, cfg.MailDriver)
	if cfg.CodeHostConfigured() {
		a.CodeHost, err = codehost.New(codehost.Config{Token: cfg.GitHubToken, Org: cfg.GitHubOrg,
			APIURL: cfg.GitHubAPIURL, SetupWorkflow: cfg.FoundrySetupWorkflow})
		if err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// DataConverter is the Temporal client's: JSON through the payload codec.
func (a *App) DataConverter() converter.DataConverter {
	return payloadcodec.DataConverter(a.Codec)
}

// Migrate applies pending migrations.
func (a *App) Migrate(ctx context.Context) error {
	n, err := a.Store.MigrateUp(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		a.Log.Info("migrations applied", "count", n)
	}
	return nil
}

// Activities builds the activity set from the app's connections
// (ActivityDeps).
func (a *App) Activities() activities.Set {
	return activities.NewSet(a.ActivityDeps())
}

// ActivityDeps are the activities' dependencies, every one from the app's
// connections and configuration. Bodies of emails with one-time links are
// kept after sending only in the local stack (config.Config.MailCatcher);
// without a SIGNING_KEY broadcasts refuse to send.
func (a *App) ActivityDeps() activities.Deps {
	d := activities.Deps{Store: a.Store, Blob: a.Blob, Mailer: a.Mailer, MailFrom: a.Config.MailFrom,
		KeepSecretBodies: a.Config.MailCatcher(), CodeHost: a.CodeHost,
		BroadcastRate: a.Config.BroadcastRate, DuesCents: a.Config.MembershipDuesCents,
		PublicURL: strings.TrimRight(a.Config.PublicURL, "/"), RetentionDays: a.Config.RetentionDays}
	if key, err := a.Config.SigningKeyBytes(); err == nil {
		signer := broadcast.UnsubscribeSigner(key)
		d.Unsubscribe = &signer
		tickets := checkin.Signer(key)
		d.Tickets = &tickets
	}
	return d
}

// StartWorker starts the Temporal worker on the configured task queue,
// and the broadcast worker on its own queue at BROADCAST_RATE, as a
// version of the Worker Deployment (app/versioning.go): when no version is
// current (a first deploy), this build is made current.
func (a *App) StartWorker() error {
	acts := a.Activities()
	o := a.workerOptions()
	a.worker = worker.New(a.Temporal, o, acts)
	if err := a.worker.Start(); err != nil {
		a.worker = nil
		return fmt.Errorf("start worker: %w", err)
	}
	a.broadcastWorker = worker.NewBroadcast(a.Temporal, o, acts.Broadcast, a.Config.BroadcastRate)
	if err := a.broadcastWorker.Start(); err != nil {
		a.broadcastWorker = nil
		return fmt.Errorf("start broadcast worker: %w", err)
	}
	a.rollOut()
	return nil
}

func (a *App) inFlightInterceptors() []interceptor.WorkerInterceptor {
	return []interceptor.WorkerInterceptor{a.inFlight.Interceptor()}
}

// goBackground runs fn in the background until Close cancels its context
// (and waits for it to return).
func (a *App) goBackground(fn func(ctx context.Context)) {
	a.backgroundWG.Add(1)
	go func() {
		defer a.backgroundWG.Done()
		fn(a.background)
	}()
}

// StartDispatcher starts the outbox dispatcher (package outbox) in the
// background: it starts the workflows that committed requests queued.
// `serve` and `dev` run one; any number may run against one database.
func (a *App) StartDispatcher() {
	ctx, cancel := context.WithCancel(context.Background())
	a.stopDispatch, a.dispatched = cancel, make(chan struct{})
	d := &outbox.Dispatcher{Store: a.Store, Temporal: a.Temporal, TaskQueue: a.Config.TaskQueue,
		Log: a.Log.With("component", "outbox"), Metrics: a.Metrics}
	go func() {
		defer close(a.dispatched)
		d.Run(ctx)
	}()
}

// Handler builds the HTTP API.
func (a *App) Handler() http.Handler {
	return api.New(api.Deps{Config: a.Config, Store: a.Store, Temporal: a.Temporal, Blob: a.Blob, Logger: a.Log,
		CodeHost: a.CodeHost, Metrics: a.Metrics, Tracer: a.Tracer, SearchAttributes: a.SearchAttributes,
		Codec: a.Codec})
}

// DefaultReadTimeout bounds reading a request when config.ReadTimeout is
// zero: a JSON body is at most 1 MiB. Uploads have their own deadline
// (config.UploadTimeout).
const DefaultReadTimeout = 30 * time.Second

// maxReadHeaderTimeout bounds reading a request's headers.
const maxReadHeaderTimeout = 10 * time.Second

// Listen binds the API address (port 0 picks a free one) and serves in the
// background. Addr reports the bound address.
func (a *App) Listen() error {
	// Refused here too, for the paths that skip config.Validate (dev).
	if _, err := config.ParseTrustedProxies(a.Config.TrustedProxies); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", a.Config.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.Config.HTTPAddr, err)
	}
	a.ln = ln
	// A client gets ReadTimeout for the request (headers at most 10 s of
	// it); upload handlers give their bodies UploadTimeout of their own
	// (api: uploadDeadline). Slow clients thus hold a connection for a
	// bounded time, and headers that never end for a short one.
	read := a.Config.ReadTimeout
	if read <= 0 {
		read = DefaultReadTimeout
	}
	a.server = &http.Server{
		Handler:           a.Handler(),
		ReadHeaderTimeout: min(read, maxReadHeaderTimeout),
		ReadTimeout:       read,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
	}
	a.served = make(chan error, 1)
	go func() { a.served <- a.server.Serve(ln) }()
	return nil
}

// Addr is the API's bound address, after Listen.
func (a *App) Addr() string { return a.ln.Addr().String() }

// URL is the API's base URL, after Listen.
func (a *App) URL() string { return "http://" + a.Addr() }

// Wait blocks until ctx ends or the server fails.
func (a *App) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-a.served:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// ShutdownGrace is the longest Close takes in a process that runs the
// workers and the API (`hackdesk dev`): in-flight requests get
// httpShutdown, running activities worker.StopTimeout, and the
// bookkeeping of the ones then cancelled bookkeepingWait. A worker's
// orchestrator must allow at least this before it kills the process
// (docs/operations.md).
const ShutdownGrace = httpShutdown + worker.StopTimeout + bookkeepingWait

// httpShutdown is how long in-flight requests get to finish on Close.
const httpShutdown = 15 * time.Second

// bookkeepingWait bounds the wait, after the workers stopped, for the
// activities they cancelled to write their outcomes down: the writes'
// own bound (mail.BookkeepingTimeout) and a little more.
const bookkeepingWait = mail.BookkeepingTimeout + 5*time.Second

// Close shuts the server down gracefully (in-flight requests get 15 s),
// stops the dispatcher, the background loops and both workers at once
// (running activities get worker.StopTimeout, then are cancelled), waits
// for the activities still running to write their outcomes down, and only
// then closes the connections.
func (a *App) Close() {
	if a.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), httpShutdown)
		_ = a.server.Shutdown(ctx)
		cancel()
	}
	if a.stopDispatch != nil {
		a.stopDispatch()
		<-a.dispatched
	}
	if a.stopBackground != nil {
		a.stopBackground()
		a.backgroundWG.Wait()
	}
	a.stopWorkers()
	if a.Temporal != nil {
		a.Temporal.Close()
	}
	a.closeMetrics()
	if a.Store != nil {
		a.Store.Close()
	}
	if a.shutdownTracing != nil {
		a.shutdownTracing()
	}
}

// stopWorkers stops both workers together, then waits (up to
// bookkeepingWait) until no activity runs: a worker's Stop cancels the
// activities still running after its stop timeout and returns without
// waiting for them, and an email they delivered is written down only
// after that (activities.DeliverEmail).
func (a *App) stopWorkers() {
	var wg sync.WaitGroup
	for _, w := range []sdkworker.Worker{a.worker, a.broadcastWorker} {
		if w == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Stop()
		}()
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), bookkeepingWait)
	defer cancel()
	if err := a.inFlight.Wait(ctx); err != nil {
		a.Log.Error("worker stopped with activities still writing their outcomes; closing anyway",
			"running", a.inFlight.Running())
	}
}

// tracingFlushTimeout bounds sending the last spans on Close.
const tracingFlushTimeout = 5 * time.Second

// temporalTLS builds the connection options for a Temporal server behind
// TLS: a client certificate (mTLS) and/or an API key (Temporal Cloud).
// Neither set: plaintext, as the dev server speaks.
func temporalTLS(cfg config.Config) (client.ConnectionOptions, client.Credentials, error) {
	if cfg.TemporalTLSCert == "" && cfg.TemporalAPIKey == "" {
		return client.ConnectionOptions{}, nil, nil
	}
	conn := client.ConnectionOptions{TLS: &tls.Config{MinVersion: tls.VersionTLS12}}
	if cfg.TemporalTLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TemporalTLSCert, cfg.TemporalTLSKey)
		if err != nil {
			return conn, nil, fmt.Errorf("TEMPORAL_TLS_CERT/TEMPORAL_TLS_KEY: %w", err)
		}
		conn.TLS.Certificates = []tls.Certificate{cert}
	}
	var creds client.Credentials
	if cfg.TemporalAPIKey != "" {
		creds = client.NewAPIKeyStaticCredentials(cfg.TemporalAPIKey)
	}
	return conn, creds, nil
}
