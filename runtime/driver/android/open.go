package android

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android/adb"
)

func init() {
	driver.Register("android", func(ctx context.Context, opts driver.Options) (driver.Driver, error) {
		return Open(ctx, opts)
	})
}

// connectTimeout bounds the first exchange with the device: a server that
// accepts but never answers (a wrong port) must not hang a run.
const connectTimeout = 15 * time.Second

// Connect reaches the device through the ADB server at opts.RemoteURL
// (host:port, default 127.0.0.1:5037) and checks that it answers: the
// device opts.Serial names, or the only one attached. A missing server or
// device is an error wrapping driver.ErrUnavailable that says what to do.
func Connect(ctx context.Context, opts driver.Options) (Device, error) {
	addr := strings.TrimPrefix(opts.RemoteURL, "tcp://")
	c := &adb.Client{Addr: addr}
	if addr == "" {
		addr = adb.DefaultAddr
	}
	dev := c.Device(opts.Serial)
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	out, err := dev.Shell(cctx, "echo cogflow")
	if err == nil && strings.TrimSpace(string(out)) != "cogflow" {
		err = fmt.Errorf("the device's shell answered %q", firstLine(out))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: android: %s", driver.ErrUnavailable, connectHint(ctx, c, addr, opts.Serial, err))
	}
	return dev, nil
}

// connectHint explains a failed connection with what the server knows.
func connectHint(ctx context.Context, c *adb.Client, addr, serial string, err error) string {
	switch {
	case errors.Is(err, adb.ErrNoServer):
		return err.Error()
	case errors.Is(err, adb.ErrMoreThanOneDevice):
		return fmt.Sprintf("several devices are attached to the adb server at %s; pick one with --serial (%s)", addr, serials(ctx, c))
	case errors.Is(err, adb.ErrDeviceNotFound) && serial != "":
		return fmt.Sprintf("no device %q at the adb server at %s (attached: %s)", serial, addr, serials(ctx, c))
	case errors.Is(err, adb.ErrDeviceNotFound):
		return fmt.Sprintf("no device is attached to the adb server at %s: connect a phone with USB debugging on, or start an emulator", addr)
	case errors.Is(err, adb.ErrDeviceUnauthorized):
		return "the device has not authorized this computer: accept the \"Allow USB debugging?\" prompt on its screen"
	case errors.Is(err, adb.ErrDeviceOffline):
		return "the device is offline: reconnect it, or restart the adb server (adb kill-server; adb start-server)"
	}
	return fmt.Sprintf("the device at %s does not answer: %v", addr, err)
}

func serials(ctx context.Context, c *adb.Client) string {
	ds, err := c.Devices(ctx)
	if err != nil || len(ds) == 0 {
		return "none"
	}
	var out []string
	for _, d := range ds {
		out = append(out, d.Serial+" ("+d.State+")")
	}
	return strings.Join(out, ", ")
}

// Open connects to the device and returns a driver for it.
func Open(ctx context.Context, opts driver.Options) (*Driver, error) {
	dev, err := Connect(ctx, opts)
	if err != nil {
		return nil, err
	}
	return New(dev, opts), nil
}

// isAdbLost reports whether err is the adb client's error for a connection
// or device that went away.
func isAdbLost(err error) bool {
	return errors.Is(err, adb.ErrConnectionLost) || errors.Is(err, adb.ErrNoServer) ||
		errors.Is(err, adb.ErrDeviceNotFound) || errors.Is(err, adb.ErrDeviceOffline)
}

// isConnectionReset reports a connection that broke mid-request, as
// opposed to a server or device that is gone.
func isConnectionReset(err error) bool {
	return errors.Is(err, adb.ErrConnectionLost) && !errors.Is(err, adb.ErrDeviceNotFound) &&
		!errors.Is(err, adb.ErrDeviceOffline) && !errors.Is(err, adb.ErrNoServer)
}
