package adb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
)

// DefaultAddr is where the adb command's server listens unless told otherwise.
const DefaultAddr = "127.0.0.1:5037"

// Client talks to one adb server. The zero value uses DefaultAddr. A Client
// holds no connection: every call opens its own, as the adb command does,
// so a Client is safe for concurrent use.
type Client struct {
	// Addr is the server's host:port; "" means DefaultAddr.
	Addr string
	// Dial, when set, replaces net.Dialer.DialContext, e.g. to reach a
	// server through a tunnel. network is always "tcp".
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// DeviceInfo is one line of the server's device list (host:devices-l).
type DeviceInfo struct {
	// Serial names the device for Client.Device, e.g. "emulator-5554".
	Serial string
	// State is "device" when usable; otherwise e.g. "offline",
	// "unauthorized", "recovery" or "no permissions (…)".
	State string
	// Product, Model and Device are the build's names, "" when unknown.
	Product, Model, Device string
	// TransportID is the server's number for the connection to the device.
	TransportID string
}

func (c *Client) addr() string {
	if c == nil || c.Addr == "" {
		return DefaultAddr
	}
	return c.Addr
}

// Version returns the server's protocol version (41 for adb 1.0.41). The
// adb command restarts a server whose version differs from its own.
func (c *Client) Version(ctx context.Context) (int, error) {
	b, err := c.hostQuery(ctx, "host:version")
	if err != nil {
		return 0, err
	}
	if len(b) != 4 {
		return 0, fmt.Errorf("%w: version %q is not four hex digits", ErrProtocol, b)
	}
	v, err := strconv.ParseUint(string(b), 16, 16)
	if err != nil {
		return 0, fmt.Errorf("%w: version %q is not four hex digits", ErrProtocol, b)
	}
	return int(v), nil
}

// Devices lists the devices the server knows, in every state; callers that
// need a usable one check State == "device".
func (c *Client) Devices(ctx context.Context) ([]DeviceInfo, error) {
	b, err := c.hostQuery(ctx, "host:devices-l")
	if err != nil {
		return nil, err
	}
	return parseDevices(string(b)), nil
}

// hostQuery sends one host service whose answer is a single length-prefixed
// string, and returns that string.
func (c *Client) hostQuery(ctx context.Context, service string) ([]byte, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.request(service); err != nil {
		return nil, err
	}
	b, err := readHexString(conn)
	if err != nil {
		return nil, conn.wrap(service, err)
	}
	return b, nil
}

// dial connects to the server; the connection closes itself when ctx ends,
// which is how a blocked read or write observes cancellation.
func (c *Client) dial(ctx context.Context) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("adb: %w", err)
	}
	dial := c.dialFunc()
	addr := c.addr()
	nc, err := dial(ctx, "tcp", addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("adb: connecting to %s: %w", addr, ctx.Err())
		}
		// The dialer's own deadline (the context's, a hair early) is a
		// slow or unreachable host, not a refusal: no server is a
		// different advice.
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, fmt.Errorf("adb: connecting to %s timed out: %w", addr, err)
		}
		return nil, noServerError(addr, err)
	}
	cn := &conn{Conn: nc, ctx: ctx}
	cn.stop = context.AfterFunc(ctx, func() { nc.Close() })
	return cn, nil
}

func (c *Client) dialFunc() func(ctx context.Context, network, addr string) (net.Conn, error) {
	if c != nil && c.Dial != nil {
		return c.Dial
	}
	var d net.Dialer
	return d.DialContext
}

// conn is one connection to the server, tied to the context it was dialed
// with.
type conn struct {
	net.Conn
	ctx  context.Context
	stop func() bool
}

// Close releases the connection and its context watcher.
func (c *conn) Close() error {
	c.stop()
	return c.Conn.Close()
}

// request sends service and reads the server's OKAY or FAIL.
func (c *conn) request(service string) error {
	if err := writeRequest(c, service); err != nil {
		return c.wrap(service, err)
	}
	if err := readStatus(c, service); err != nil {
		return c.wrap(service, err)
	}
	return nil
}

// wrap turns a low-level error into what the caller should see: the
// context's error when the context closed the connection, ErrConnectionLost
// when the peer went away, the error itself otherwise (FailError,
// ErrProtocol).
func (c *conn) wrap(service string, err error) error {
	if err == nil {
		return nil
	}
	if ctxErr := c.ctx.Err(); ctxErr != nil {
		return fmt.Errorf("adb: %s: %w", service, ctxErr)
	}
	var fail *FailError
	if errors.As(err, &fail) || errors.Is(err, ErrProtocol) {
		return err
	}
	if isLost(err) {
		return fmt.Errorf("adb: %s: %w (%w)", service, ErrConnectionLost, err)
	}
	return fmt.Errorf("adb: %s: %w", service, err)
}

// isLost reports errors that mean the other end closed or reset the
// connection while we still expected an answer.
func isLost(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, net.ErrClosed)
}

// parseDevices reads host:devices-l (or host:devices) text. A line is the
// serial, then the state, then key:value pairs; the state may itself
// contain spaces ("no permissions (…); see [http://…]"), so it runs up to
// the first known key.
func parseDevices(text string) []DeviceInfo {
	var out []DeviceInfo
	for _, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		d := DeviceInfo{Serial: fields[0]}
		var state []string
		keys := false
		for _, f := range fields[1:] {
			k, v, ok := strings.Cut(f, ":")
			known := ok && isDeviceKey(k)
			if !known && !keys {
				state = append(state, f)
				continue
			}
			keys = true
			switch k {
			case "product":
				d.Product = v
			case "model":
				d.Model = v
			case "device":
				d.Device = v
			case "transport_id":
				d.TransportID = v
			}
		}
		d.State = strings.Join(state, " ")
		out = append(out, d)
	}
	return out
}

func isDeviceKey(k string) bool {
	switch k {
	case "usb", "product", "model", "device", "transport_id", "features":
		return true
	}
	return false
}
