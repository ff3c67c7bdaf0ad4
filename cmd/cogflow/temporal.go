package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/cogflow/cogflow/internal/temporalrun"
)

// The connection flags that worker, submit and cancel share, as Temporal
// users know them from the temporal CLI. Each defaults to an environment
// variable, so `cogflow runs` (which has no such flags) reaches the same
// server the same way.
type temporalFlags struct {
	conn  temporalrun.Conn
	queue string
}

func (t *temporalFlags) add(fs *flag.FlagSet, withQueue bool) {
	env := os.Getenv
	fs.StringVar(&t.conn.Address, "temporal", env("COGFLOW_TEMPORAL_ADDRESS"), "the Temporal frontend, `HOST:PORT` (default $COGFLOW_TEMPORAL_ADDRESS)")
	fs.StringVar(&t.conn.Namespace, "namespace", cmp.Or(env("COGFLOW_TEMPORAL_NAMESPACE"), "default"), "the Temporal namespace")
	if withQueue {
		fs.StringVar(&t.queue, "task-queue", cmp.Or(env("COGFLOW_TEMPORAL_TASK_QUEUE"), temporalrun.DefaultTaskQueue), "the task queue the workers poll")
	}
	fs.StringVar(&t.conn.TLSCert, "tls-cert", env("COGFLOW_TEMPORAL_TLS_CERT"), "TLS: the client certificate (PEM), for mTLS")
	fs.StringVar(&t.conn.TLSKey, "tls-key", env("COGFLOW_TEMPORAL_TLS_KEY"), "TLS: the client certificate's private key (PEM)")
	fs.StringVar(&t.conn.TLSCA, "tls-ca", env("COGFLOW_TEMPORAL_TLS_CA"), "TLS: the CA that signed the server's certificate (PEM; default: the system's roots)")
	fs.StringVar(&t.conn.TLSServerName, "tls-server-name", env("COGFLOW_TEMPORAL_TLS_SERVER_NAME"), "TLS: the server name to check the certificate against")
	fs.StringVar(&t.conn.KeyFile, "key-file", "", "the payload key shared by submitter and workers: 32 bytes in hex or base64 (default $"+temporalrun.KeyFileEnv+", else $"+temporalrun.KeyEnv+")")
}

// dial connects with the flags; the error names the command.
func (c *cli) dialTemporal(ctx context.Context, name string, t temporalFlags) (client.Client, bool, int) {
	if t.conn.Address == "" {
		fmt.Fprintf(c.stderr, "cogflow %s: give the Temporal frontend with --temporal HOST:PORT\n", name)
		return nil, false, exitUsage
	}
	t.conn.Quiet = true
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cl, sealed, err := temporalrun.Dial(dctx, t.conn)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow %s: %v\n", name, err)
		return nil, false, exitUsage
	}
	return cl, sealed, exitOK
}

// signalled returns a context cancelled by the first stop signal.
func signalled(parent context.Context) (context.Context, func()) {
	if parent == nil {
		parent = context.Background()
	}
	return signal.NotifyContext(parent, stopSignals...)
}

// flagGiven reports whether the command line set the flag.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
