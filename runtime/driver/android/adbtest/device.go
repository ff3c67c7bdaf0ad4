package adbtest

import (
	"sort"
	"sync"
)

// device is one simulated device behind the server: its state as the
// server lists it, its app, a file system for dump files and its input
// devices.
type device struct {
	serial      string
	state       string // "device", "offline", "unauthorized", …
	transportID uint64
	app         *App
	events      *eventHub

	mu    sync.Mutex
	files map[string][]byte
	imes  []string // installed input methods
	ime   string   // the selected one
	// dumpFailures is how many of the next dumps fail as uiautomator does
	// while the screen animates.
	dumpFailures int
}

// takeDumpFailure reports whether this dump should fail, counting it.
func (d *device) takeDumpFailure() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dumpFailures == 0 {
		return false
	}
	d.dumpFailures--
	return true
}

// FailNextDumps makes the primary device's next n `uiautomator dump`s fail
// with "ERROR: could not get idle state.", as they do on a real device
// while an animation runs, so that retries can be tested.
func (s *Server) FailNextDumps(n int) {
	s.primary.mu.Lock()
	defer s.primary.mu.Unlock()
	s.primary.dumpFailures = n
}

func newDevice(serial, state string, id uint64, app *App) *device {
	if app == nil {
		app = NewApp()
	}
	return &device{serial: serial, state: state, transportID: id, app: app,
		events: newEventHub(), files: map[string][]byte{}, imes: []string{GboardIME}, ime: GboardIME}
}

func (d *device) readFile(path string) ([]byte, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, ok := d.files[path]
	return b, ok
}

func (d *device) writeFile(path string, b []byte, appendTo bool) {
	if path == "/dev/null" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if appendTo {
		b = append(d.files[path][:len(d.files[path]):len(d.files[path])], b...)
	}
	d.files[path] = b
}

func (d *device) removeFile(path string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.files[path]
	delete(d.files, path)
	return ok
}

// Files lists the paths in the device's simulated file system (the files
// `uiautomator dump` and `screencap` wrote, minus those removed).
func (s *Server) Files() []string {
	d := s.primary
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for p := range d.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// properties answers getprop: the build of an Android 13 emulator image.
func (d *device) properties() map[string]string {
	return map[string]string{
		"ro.build.version.sdk":     "33",
		"ro.build.version.release": "13",
		"ro.product.model":         "sdk_gphone64_x86_64",
		"ro.product.name":          "sdk_gphone64_x86_64",
		"ro.product.device":        "emu64xa",
		"ro.product.manufacturer":  "Google",
		"ro.serialno":              d.serial,
		"sys.boot_completed":       "1",
		"ro.build.characteristics": "emulator",
	}
}
