package driver_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
	_ "github.com/cogflow/cogflow/runtime/driver/android"
	_ "github.com/cogflow/cogflow/runtime/driver/browser"
	_ "github.com/cogflow/cogflow/runtime/driver/uia"
)

// TestRegistry checks that the three drivers register their recorders and
// what Start says before any browser or device is reached.
func TestRegistry(t *testing.T) {
	if got := driver.RecorderNames(); !slices.Equal(got, []string{"android", "browser", "uia"}) {
		t.Errorf("Names() = %v", got)
	}
	tests := []struct {
		name   string
		driver string
		opts   driver.RecordOptions
		is     error  // what Start's error must wrap; nil: Start succeeds
		banner string // the banner of a recorder that started
	}{
		{name: "unknown", driver: "ios", is: driver.ErrNoRecorder},
		{name: "browser needs a page", driver: "browser", is: driver.ErrNoURL},
		{name: "uia's default chord", driver: "uia", banner: "recording the desktop — press Ctrl+Shift+X or Ctrl-C to stop"},
		{name: "uia's chord", driver: "uia", opts: driver.RecordOptions{StopChord: "Alt+Q"},
			banner: "recording the desktop — press Alt+Q or Ctrl-C to stop"},
		{name: "android without a server", driver: "android", opts: driver.RecordOptions{Driver: driver.Options{RemoteURL: "127.0.0.1:1"}},
			is: driver.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := driver.StartRecorder(context.Background(), tt.driver, tt.opts)
			if tt.is != nil {
				if !errors.Is(err, tt.is) {
					t.Fatalf("err = %v, want one that wraps %v", err, tt.is)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := r.Banner(); got != tt.banner {
				t.Errorf("Banner() = %q, want %q", got, tt.banner)
			}
		})
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "twice") {
			t.Errorf("a second Register did not panic: %v", r)
		}
	}()
	driver.RegisterRecorder("uia", nil)
}
