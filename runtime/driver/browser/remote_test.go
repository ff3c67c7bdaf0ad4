package browser

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestRemoteURLForms attaches to a headless Chromium started with
// --remote-debugging-port through every form --browser-url accepts: the
// browser's own WebSocket URL as it is, and ws://host:port, http://host:port
// and host:port resolved through /json/version (ws://host:port used as it
// is got "bad handshake: 404").
func TestRemoteURLForms(t *testing.T) {
	host := sharedDriver(t)
	full := host.proc.url
	u, err := url.Parse(full)
	if err != nil || !strings.HasPrefix(u.Path, "/devtools/browser/") {
		t.Fatalf("the launched browser's URL %q: %v", full, err)
	}
	s := newSite(t)
	page := s.page("/remote-forms", `<title>Remote forms</title>`)
	for _, form := range []string{full, "ws://" + u.Host, "ws://" + u.Host + "/", "http://" + u.Host, u.Host} {
		t.Run(form, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			got, err := remoteURL(ctx, form)
			if err != nil || got != full {
				t.Fatalf("remoteURL(%q) = %q, %v; want %q", form, got, err, full)
			}
			d, err := Start(ctx, driver.Options{RemoteURL: form})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			open(t, d, page)
			if title := eval(t, d, "document.title"); title != "Remote forms" {
				t.Errorf("title %q", title)
			}
		})
	}
}
