package adb

import (
	"context"
	"errors"
	"io"
	"sync"
)

// Device runs services on one device through the server. It is a name, not
// a connection: every call opens a new connection and switches it to the
// device, so a Device is safe for concurrent use and survives a server
// restart.
type Device struct {
	client *Client
	serial string
}

// Device returns a handle for the device with serial. With "" the server
// picks the only attached device (host:transport-any) and fails with
// ErrMoreThanOneDevice when there are several.
func (c *Client) Device(serial string) *Device {
	return &Device{client: c, serial: serial}
}

// Serial returns the serial the Device was made with ("" for any device).
func (d *Device) Serial() string { return d.serial }

// transport is the request that switches a connection to this device.
func (d *Device) transport() string {
	if d.serial == "" {
		return "host:transport-any"
	}
	return "host:transport:" + d.serial
}

// open connects, switches to the device and starts service; on success the
// connection carries the service's output.
func (d *Device) open(ctx context.Context, service string) (*conn, error) {
	cn, err := d.client.dial(ctx)
	if err != nil {
		return nil, err
	}
	if err := cn.request(d.transport()); err != nil {
		cn.Close()
		return nil, err
	}
	if err := cn.request(service); err != nil {
		cn.Close()
		return nil, err
	}
	return cn, nil
}

// Shell runs cmd with the device's shell (service shell:, protocol v1) and
// returns everything it printed, stderr merged into stdout. The exit status
// is not reported by v1; check the output. Quote arguments with QuoteShell.
// Devices older than Android 7 run shell: through a terminal, which turns
// "\n" into "\r\n"; parse output with that in mind, or use Exec.
//
// A v1 shell ends by closing the connection, so a device that closes it
// cleanly mid-command looks like a command that finished; only a reset or a
// failure before the answer is ErrConnectionLost.
func (d *Device) Shell(ctx context.Context, cmd string) ([]byte, error) {
	return d.run(ctx, "shell:", cmd)
}

// Exec runs cmd like Shell but through exec:, which never passes through a
// terminal, so binary output (`screencap -p`) arrives byte for byte.
func (d *Device) Exec(ctx context.Context, cmd string) ([]byte, error) {
	return d.run(ctx, "exec:", cmd)
}

func (d *Device) run(ctx context.Context, kind, cmd string) ([]byte, error) {
	if cmd == "" {
		// An empty shell: would start an interactive shell that never ends.
		return nil, errors.New("adb: empty command")
	}
	cn, err := d.open(ctx, kind+cmd)
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	out, err := io.ReadAll(cn)
	if err != nil {
		return out, cn.wrap(kind+cmd, err)
	}
	return out, nil
}

// ShellStream starts cmd (e.g. "getevent -lt") and returns its output as it
// comes. Close ends the command; so does the end of ctx, after which Read
// returns ctx's error. Read returns io.EOF when the device ends the command
// and an error wrapping ErrConnectionLost when the connection is reset.
func (d *Device) ShellStream(ctx context.Context, cmd string) (io.ReadCloser, error) {
	if cmd == "" {
		return nil, errors.New("adb: empty command")
	}
	cn, err := d.open(ctx, "shell:"+cmd)
	if err != nil {
		return nil, err
	}
	return &stream{conn: cn, service: "shell:" + cmd}, nil
}

// stream is ShellStream's reader.
type stream struct {
	conn    *conn
	service string
	mu      sync.Mutex
	closed  bool
}

// Read returns the command's output; after Close it returns io.EOF.
func (s *stream) Read(p []byte) (int, error) {
	n, err := s.conn.Read(p)
	if err == nil || errors.Is(err, io.EOF) && s.conn.ctx.Err() == nil {
		return n, err
	}
	if s.isClosed() {
		return n, io.EOF
	}
	return n, s.conn.wrap(s.service, err)
}

// Close ends the command by closing the connection; the device's shell then
// hangs up the command, as when a person presses Ctrl-C in `adb shell`.
// Closing twice is harmless.
func (s *stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.conn.Close()
}

func (s *stream) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
