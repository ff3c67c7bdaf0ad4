package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"

	"github.com/cogflow/cogflow/runtime/driver"
)

// candidates are the programs tried, in order, when neither
// Options.Executable nor COGFLOW_CHROME names one.
var candidates = []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// FindChromium returns the browser program the driver would start: the
// given path, else $COGFLOW_CHROME, else the first of /usr/bin/chromium,
// chromium, chromium-browser, google-chrome on PATH. Its error wraps
// driver.ErrUnavailable.
func FindChromium(executable string) (string, error) {
	if executable == "" {
		executable = os.Getenv("COGFLOW_CHROME")
	}
	if executable != "" {
		p, err := exec.LookPath(executable)
		if err != nil {
			return "", fmt.Errorf("browser: cannot run %s: %v: %w", executable, err, driver.ErrUnavailable)
		}
		return p, nil
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("browser: no Chromium found (tried %s): install it (apt-get install chromium) "+
		"or set COGFLOW_CHROME to its path: %w", strings.Join(candidates, ", "), driver.ErrUnavailable)
}

// process is a browser the driver launched.
type process struct {
	l   *launcher.Launcher
	dir string // the temporary profile, in ProfilesDir (profiles.go)
	pro *profile
	pid int
	url string
}

// launch starts Chromium on a fresh temporary profile (in ProfilesDir,
// with autofill and password saving off) and returns its DevTools URL. It
// never downloads a browser.
func launch(ctx context.Context, opts driver.Options) (*process, error) {
	bin, err := FindChromium(opts.Executable)
	if err != nil {
		return nil, err
	}
	pro, err := newProfile()
	if err != nil {
		return nil, err
	}
	dir := pro.dir
	l := launcher.New().Context(ctx).Bin(bin).Headless(!opts.Headed).NoSandbox(true).UserDataDir(dir).
		Set("disable-background-networking").Set("disable-component-update").Set("disable-gpu").
		Set("no-first-run").Set("disable-sync").Set("disable-extensions").Set("disable-default-apps").
		Set("no-default-browser-check").Set("disable-smooth-scrolling").Set("mute-audio").
		Set("password-store", "basic").Set("window-size", "1280,900").Set("disable-crash-reporter").Set("no-zygote")
	u, err := l.Launch()
	if err != nil {
		if pid := l.PID(); pid > 0 {
			killGroup(pid)
		}
		_ = pro.remove()
		return nil, fmt.Errorf("browser: starting %s: %w", bin, err)
	}
	return &process{l: l, dir: dir, pro: pro, pid: l.PID(), url: u}, nil
}

// stop asks the browser to exit (so that it reaps its own children), kills
// its process group if it does not within a few seconds, waits for it and
// removes the profile.
func (p *process) stop(b *rod.Browser) error {
	if b != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, _ = b.Call(ctx, "", "Browser.close", struct{}{})
		cancel()
	}
	exited := make(chan struct{})
	go func() {
		p.l.Cleanup() // waits for the process, then removes the profile
		close(exited)
	}()
	var err error
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		killGroup(p.pid)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			err = errors.New("browser: the browser process did not exit")
		}
	}
	// Children that outlive the main process (utility processes finishing
	// up) go too: the whole process group.
	killGroup(p.pid)
	if rmErr := p.pro.remove(); rmErr != nil && err == nil {
		err = fmt.Errorf("browser: removing the profile: %w", rmErr)
	}
	return err
}

// remoteURL turns Options.RemoteURL into a DevTools WebSocket URL: a
// browser's own ws://host:port/devtools/browser/<id> is used as it is;
// anything else (ws://host:port, http://host:port, host:port) is asked
// for its URL at /json/version, since only that path accepts a client.
func remoteURL(ctx context.Context, u string) (string, error) {
	if p, err := url.Parse(u); err == nil && (p.Scheme == "ws" || p.Scheme == "wss") && strings.HasPrefix(p.Path, "/devtools/") {
		return u, nil
	}
	type result struct {
		u   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		ws, err := launcher.ResolveURL(u)
		ch <- result{ws, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			return "", fmt.Errorf("browser: remote browser %s: %w", u, r.err)
		}
		return r.u, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
