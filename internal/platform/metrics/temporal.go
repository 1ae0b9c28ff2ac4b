package metrics

import (
	"io"
	"time"

	"github.com/uber-go/tally/v4"
	tallyprom "github.com/uber-go/tally/v4/prometheus"
	"go.temporal.io/sdk/client"
	sdktally "go.temporal.io/sdk/contrib/tally"
)

// temporalInterval is how often the Temporal SDK's metrics are copied
// into the registry.
const temporalInterval = time.Second

// TemporalHandler is the Temporal SDK's metrics handler for a client
// (client.Options.MetricsHandler; the workers built on that client use it
// too), reporting into the registry through tally's Prometheus reporter
// with Prometheus names: counters end in _total, timers are histograms in
// seconds (temporal_workflow_completed_total,
// temporal_activity_schedule_to_start_latency_seconds). Close the closer
// after the client. On a nil Metrics: nil (the SDK's no-op handler) and a
// no-op closer.
func (m *Metrics) TemporalHandler() (client.MetricsHandler, io.Closer) {
	if m == nil {
		return nil, io.NopCloser(nil)
	}
	reporter := tallyprom.NewReporter(tallyprom.Options{
		Registerer:       m.Registry,
		DefaultTimerType: tallyprom.HistogramTimerType,
		// The default panics; a metric whose labels changed is dropped.
		OnRegisterError: func(err error) {
			m.log.Warn("metrics: a Temporal SDK metric could not be registered", "err", err)
		},
	})
	scope, closer := tally.NewRootScope(tally.ScopeOptions{
		CachedReporter:         reporter,
		Separator:              tallyprom.DefaultSeparator,
		SanitizeOptions:        &sdktally.PrometheusSanitizeOptions,
		OmitCardinalityMetrics: true,
	}, temporalInterval)
	return sdktally.NewMetricsHandler(sdktally.NewPrometheusNamingScope(scope)), closer
}
