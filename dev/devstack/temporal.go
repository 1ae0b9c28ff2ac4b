package devstack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"hackdesk/internal/platform/searchattrs"
)

// TemporalOptions configure the Temporal dev server.
type TemporalOptions struct {
	Bin     string // path of the temporal CLI
	DBFile  string // SQLite file; state survives restarts. Empty: in memory
	Port    int    // gRPC frontend; 0 picks a free port
	UIPort  int    // Web UI; 0 picks a free port
	LogPath string
	// UICodecEndpoint is the codec server the Web UI decodes payloads
	// with (the API's /api/temporal/codec); empty: none, and the UI shows
	// ciphertext.
	UICodecEndpoint string
}

// Temporal is a running dev server.
type Temporal struct {
	Address string
	UIURL   string
	proc    *process
}

// StartTemporal starts `temporal server start-dev` on loopback and waits
// until both the frontend and the Web UI answer. The server binds a few
// ports of its own choosing besides the ones given here, which another
// process can take in the moment between the choice and the bind; when the
// server exits before it is ready and this call chose its ports, it tries
// again on fresh ones, three times in all.
func StartTemporal(ctx context.Context, o TemporalOptions) (*Temporal, error) {
	const attempts = 3
	chosen := o.Port == 0 && o.UIPort == 0
	for attempt := 1; ; attempt++ {
		t, err := startTemporal(ctx, o)
		var exited *exitedError
		if err == nil || !chosen || attempt == attempts || !errors.As(err, &exited) || ctx.Err() != nil {
			return t, err
		}
	}
}

func startTemporal(ctx context.Context, o TemporalOptions) (*Temporal, error) {
	var err error
	if o.Port, err = portOrFree(o.Port); err != nil {
		return nil, err
	}
	if o.UIPort, err = portOrFree(o.UIPort); err != nil {
		return nil, err
	}
	httpPort, err := FreePort()
	if err != nil {
		return nil, err
	}
	metricsPort, err := FreePort()
	if err != nil {
		return nil, err
	}
	for name, port := range map[string]int{"Temporal": o.Port, "Temporal UI": o.UIPort} {
		if err := checkPortFree(name, port); err != nil {
			return nil, err
		}
	}
	args := []string{"server", "start-dev",
		"--ip", "127.0.0.1",
		"--port", strconv.Itoa(o.Port),
		"--ui-port", strconv.Itoa(o.UIPort),
		"--http-port", strconv.Itoa(httpPort),
		"--metrics-port", strconv.Itoa(metricsPort),
		"--log-level", "warn",
		// One partition per task queue: the server divides a queue's rate
		// limit (the broadcast queue's) among its partitions, and with the
		// default four a partition left without work wastes its share.
		"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
		"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1",
		// Worker Versioning: every hackdesk worker registers as a version
		// of the deployment named after its task queue. The server keeps
		// at most 100 deployments a namespace by default, and deployments
		// are never removed; a test binary makes one per test (each test
		// has its own task queue).
		"--dynamic-config-value", "matching.maxDeployments=100000",
	}
	for _, sa := range SearchAttributes {
		args = append(args, "--search-attribute", sa+"=Keyword")
	}
	if o.DBFile != "" {
		args = append(args, "--db-filename", o.DBFile)
	}
	if o.UICodecEndpoint != "" {
		args = append(args, "--ui-codec-endpoint", o.UICodecEndpoint)
	}
	cmd := exec.Command(o.Bin, args...)
	proc, err := startProcess("temporal", cmd, o.LogPath, syscall.SIGTERM)
	if err != nil {
		return nil, err
	}
	t := &Temporal{
		Address: "127.0.0.1:" + strconv.Itoa(o.Port),
		UIURL:   "http://127.0.0.1:" + strconv.Itoa(o.UIPort),
		proc:    proc,
	}
	err = waitReady(ctx, proc, 90*time.Second, func(ctx context.Context) error {
		return CheckTemporal(ctx, t.Address)
	})
	if err == nil {
		err = waitReady(ctx, proc, 30*time.Second, func(ctx context.Context) error {
			return checkHTTP(ctx, t.UIURL+"/")
		})
	}
	if err != nil {
		proc.stop(10 * time.Second)
		return nil, err
	}
	return t, nil
}

// Stop shuts the server down.
func (t *Temporal) Stop() { t.proc.stop(20 * time.Second) }

// SearchAttributes are the custom Keyword search attributes every hackdesk
// workflow carries (workflows.KindAttribute and SubjectAttribute).
var SearchAttributes = searchattrs.Names

// RegisterSearchAttributes adds the attributes the namespace lacks, for a
// Temporal server that `hackdesk dev` did not start. docs/operations.md
// has the command for a production cluster.
func RegisterSearchAttributes(ctx context.Context, c client.Client, namespace string) error {
	have, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: namespace})
	if err != nil {
		return fmt.Errorf("list search attributes: %w", err)
	}
	missing := map[string]enumspb.IndexedValueType{}
	for _, name := range SearchAttributes {
		if _, ok := have.GetCustomAttributes()[name]; !ok {
			missing[name] = enumspb.INDEXED_VALUE_TYPE_KEYWORD
		}
	}
	if len(missing) == 0 {
		return nil
	}
	_, err = c.OperatorService().AddSearchAttributes(ctx, &operatorservice.AddSearchAttributesRequest{
		Namespace: namespace, SearchAttributes: missing})
	if err != nil {
		return fmt.Errorf("add search attributes: %w", err)
	}
	return nil
}

// CheckTemporal dials address and asks the frontend for its health.
func CheckTemporal(ctx context.Context, address string) error {
	c, err := client.DialContext(ctx, client.Options{
		HostPort: address,
		Logger:   sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)),
	})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
	return err
}

func checkHTTP(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d", url, resp.StatusCode)
	}
	return nil
}
