package temporalrun

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Conn says how to reach a Temporal frontend.
type Conn struct {
	Address   string // HOST:PORT
	Namespace string // "": default
	// TLS: a client certificate and key (mTLS), the CA that signed the
	// server's certificate ("" : the system's roots) and the name to check
	// it against. No file and no ServerName: plain gRPC.
	TLSCert, TLSKey, TLSCA, TLSServerName string
	// KeyFile holds the payload key (see LoadKey).
	KeyFile string
	// Quiet drops the SDK's own log lines below warnings.
	Quiet bool
}

// Dial connects. sealed reports whether a payload key was found: without
// one, payloads travel as plain JSON (the caller refuses secrets then).
func Dial(ctx context.Context, c Conn) (cl client.Client, sealed bool, err error) {
	opts := client.Options{HostPort: c.Address, Namespace: c.Namespace}
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	level := slog.LevelInfo
	if c.Quiet {
		level = slog.LevelWarn
	}
	opts.Logger = log.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
	if opts.ConnectionOptions.TLS, err = c.tlsConfig(); err != nil {
		return nil, false, err
	}
	key, sealed, err := LoadKey(c.KeyFile)
	if err != nil {
		return nil, false, err
	}
	if sealed {
		codec, err := NewCodec(key)
		if err != nil {
			return nil, false, err
		}
		opts.DataConverter = converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec)
		// Failure messages and stack traces are payloads too, then: a
		// step's error quotes the page.
		opts.FailureConverter = temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
			DataConverter: opts.DataConverter, EncodeCommonAttributes: true})
	}
	cl, err = client.DialContext(ctx, opts)
	if err != nil {
		return nil, false, fmt.Errorf("temporal at %s: %w", c.Address, err)
	}
	return cl, sealed, nil
}

func (c Conn) tlsConfig() (*tls.Config, error) {
	if c.TLSCert == "" && c.TLSKey == "" && c.TLSCA == "" && c.TLSServerName == "" {
		return nil, nil
	}
	cfg := &tls.Config{ServerName: c.TLSServerName, MinVersion: tls.VersionTLS12}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return nil, errors.New("--tls-cert and --tls-key go together")
	}
	if c.TLSCert != "" {
		pair, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("TLS client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	if c.TLSCA != "" {
		pem, err := os.ReadFile(c.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("TLS CA: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TLS CA %s: no PEM certificate in it", c.TLSCA)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// NewWorker registers the batch and row workflows and r's activity on the
// task queue; slots bounds the rows this worker runs at once (one browser
// each).
func NewWorker(cl client.Client, queue string, slots int, r *Runner) worker.Worker {
	w := worker.New(cl, queue, worker.Options{
		MaxConcurrentActivityExecutionSize: max(slots, 1),
		// A stopping worker lets its rows stop between steps.
		WorkerStopTimeout: 30 * time.Second,
	})
	w.RegisterWorkflowWithOptions(BatchWorkflow, workflowName(BatchWorkflowName))
	w.RegisterWorkflowWithOptions(RowWorkflow, workflowName(RowWorkflowName))
	w.RegisterActivityWithOptions(r.RunRow, activityName(RunRowActivity))
	return w
}

func workflowName(n string) workflow.RegisterOptions { return workflow.RegisterOptions{Name: n} }
func activityName(n string) activity.RegisterOptions { return activity.RegisterOptions{Name: n} }
