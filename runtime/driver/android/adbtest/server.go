package adbtest

import (
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// DefaultSerial is the primary device's serial, an emulator's name.
const DefaultSerial = "emulator-5554"

// Server is an ADB host-protocol server with one simulated device (and
// more with AddDevice). It speaks to the adb client library and to the real
// `adb` command alike.
type Server struct {
	// Serial is the primary device's serial, DefaultSerial.
	Serial string

	ln      net.Listener
	primary *device
	wg      sync.WaitGroup

	mu       sync.Mutex
	devices  []*device
	conns    map[net.Conn]*device // open connections → device they switched to
	requests []string
	nextTID  uint64
	closed   bool
}

// Cleaner is what NewServer needs of a test: testing.TB has it. Taking
// this rather than testing.TB keeps package testing out of programs that
// serve the device (cogflow demo android).
type Cleaner interface {
	Cleanup(func())
}

// NewServer starts a server on 127.0.0.1 at a free port whose one device
// runs app (a NewApp when nil). With tb, the server closes when the test
// ends.
func NewServer(tb Cleaner, app *App) (*Server, error) {
	s, err := Listen("127.0.0.1:0", app)
	if err != nil {
		return nil, err
	}
	if tb != nil {
		tb.Cleanup(s.Close)
	}
	return s, nil
}

// Listen starts a server at addr (HOST:PORT; port 0 picks a free one)
// whose one device runs app (a NewApp when nil). The caller closes it.
func Listen(addr string, app *App) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("adbtest: %w", err)
	}
	s := &Server{Serial: DefaultSerial, ln: ln, conns: map[net.Conn]*device{}}
	s.primary = s.addDevice(DefaultSerial, "device", app)
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Addr returns the server's address, "127.0.0.1:PORT", for adb.Client.Addr.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Port returns the server's port, for `adb -P PORT`.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// App returns the primary device's app.
func (s *Server) App() *App { return s.primary.app }

// Close stops the server, ends every connection and waits until all their
// handlers have returned. Closing twice is harmless.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.ln.Close()
	s.closeConns(nil, false)
	s.wg.Wait()
}

// AddDevice attaches another simulated device in state ("device",
// "offline", "unauthorized", …) with its own NewApp, returned. With two
// devices a request without a serial fails as on a real server.
func (s *Server) AddDevice(serial, state string) *App {
	return s.addDevice(serial, state, nil).app
}

func (s *Server) addDevice(serial, state string, app *App) *device {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextTID++
	d := newDevice(serial, state, s.nextTID, app)
	s.devices = append(s.devices, d)
	return d
}

// DropConnections resets every open connection, as a crashing server or a
// pulled cable does; clients see ECONNRESET mid-command. New connections
// are served as before.
func (s *Server) DropConnections() { s.closeConns(nil, true) }

// VanishDevice makes the primary device disappear, as when it is
// unplugged: it leaves the device list, requests for it fail with "device
// 'SERIAL' not found" and its open connections are reset.
func (s *Server) VanishDevice() {
	s.mu.Lock()
	for i, d := range s.devices {
		if d == s.primary {
			s.devices = append(s.devices[:i], s.devices[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	s.closeConns(s.primary, true)
}

// RestoreDevice brings a vanished primary device back.
func (s *Server) RestoreDevice() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.devices {
		if d == s.primary {
			return
		}
	}
	s.devices = append([]*device{s.primary}, s.devices...)
}

// Requests returns every request the server has read, in order, e.g.
// "host:version", "host:transport:emulator-5554", "shell:wm size".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// WaitGetevent waits until at least n `getevent` streams are open on the
// primary device, so that a gesture played next reaches them; it reports
// false after timeout.
func (s *Server) WaitGetevent(n int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for s.primary.events.count() < n {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// closeConns closes the connections switched to dev (all when nil);
// reset makes the close abortive (RST) so the peer sees a lost connection
// rather than the end of output.
func (s *Server) closeConns(dev *device, reset bool) {
	s.mu.Lock()
	var cs []net.Conn
	for c, d := range s.conns {
		if dev == nil || d == dev {
			cs = append(cs, c)
		}
	}
	s.mu.Unlock()
	for _, c := range cs {
		if tc, ok := c.(*net.TCPConn); ok && reset {
			tc.SetLinger(0)
		}
		c.Close()
	}
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = nil
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(c)
	}
}

// serve handles one connection: host requests until one switches it to a
// device, then one device service.
func (s *Server) serve(c net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		c.Close()
	}()
	var dev *device
	for {
		req, err := readRequest(c)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		if dev != nil {
			s.deviceService(c, dev, req)
			return
		}
		if dev = s.hostService(c, req); dev == nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = dev
		s.mu.Unlock()
	}
}

// readRequest reads one framed request: four hex digits, then the payload.
func readRequest(r io.Reader) (string, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return "", err
	}
	n, err := strconv.ParseUint(string(h[:]), 16, 16)
	if err != nil {
		return "", fmt.Errorf("bad length %q", h[:])
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return string(b), nil
}

func okay(w io.Writer, payload ...string) {
	msg := "OKAY"
	for _, p := range payload {
		msg += fmt.Sprintf("%04x%s", len(p), p)
	}
	io.WriteString(w, msg)
}

func fail(w io.Writer, msg string) {
	fmt.Fprintf(w, "FAIL%04x%s", len(msg), msg)
}
