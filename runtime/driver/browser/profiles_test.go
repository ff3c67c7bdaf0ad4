package browser

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// formPage posts a plain text field and a password field.
const formPage = `<!doctype html><title>Form</title>
<form action="/done" method="post">
<input id=user name=user autocomplete=on aria-label=User>
<input id=pw name=pw type=password aria-label=Password>
<button id=go>Sign in</button>
</form>`

// TestProfileKeepsNoSecret types a secret into a plain field and a
// password field, posts the form, kills the browser as a crash would (the
// profile stays) and searches every file of the profile for the secret.
// Without the driver's preferences the same run leaves the secret in the
// profile's autofill data, which shows that the search finds it.
func TestProfileKeepsNoSecret(t *testing.T) {
	needChromium(t)
	for _, tc := range []struct {
		name  string
		prefs bool
	}{{"with the driver's preferences", true}, {"without them", false}} {
		t.Run(tc.name, func(t *testing.T) {
			withPrefs = tc.prefs
			defer func() { withPrefs = true }()
			leaks := profileLeaks(t)
			if tc.prefs && len(leaks) > 0 {
				t.Errorf("the profile holds the secret in %q", leaks)
			}
			if !tc.prefs && len(leaks) == 0 {
				t.Error("without the preferences nothing kept the secret: the test proves nothing")
			}
		})
	}
}

// profileLeaks runs the form in a fresh browser, kills it and returns the
// files of its profile that hold the secret.
func profileLeaks(t *testing.T) (leaks []string) {
	t.Setenv("COGFLOW_PROFILES", t.TempDir())
	const secret = "zq-8841-secret"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := Start(ctx, driver.Options{ActionTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s := newSite(t)
	s.page("/done", `<!doctype html><title>Done</title><p>Signed in</p>`)
	open(t, d, s.page("/form", formPage))
	do(t, d, driver.Action{Op: "type", Target: target(t, d, "user"), Text: secret, Secret: true})
	do(t, d, driver.Action{Op: "type", Target: target(t, d, "pw"), Text: secret, Secret: true})
	do(t, d, driver.Action{Op: "click", Target: target(t, d, "go")})
	if got := eval(t, d, "document.title"); got != "Done" {
		t.Fatalf("the form was not submitted: title %q", got)
	}
	// Let the browser write what it keeps of the form (it writes its
	// databases on a short timer), then kill it: nothing is cleaned up.
	open(t, d, s.page("/other", `<!doctype html><title>Other</title>`))
	time.Sleep(3 * time.Second)
	dir := d.proc.dir
	killGroup(d.proc.pid)
	time.Sleep(500 * time.Millisecond)
	files := 0
	err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		files++
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, form := range []string{secret, strings.ToUpper(secret)} {
			if bytes.Contains(data, []byte(form)) {
				leaks = append(leaks, filepath.Base(path))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Errorf("the profile has only %d files: the test would prove nothing", files)
	}
	return leaks
}

// TestSweepProfiles: a profile whose lock nobody holds (its cogflow was
// killed) is removed by the next launch's sweep; one whose lock is held
// (a cogflow running beside) and a folder that is not a profile stay.
func TestSweepProfiles(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, lock bool) string {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(dir, "Default"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "Default", "Web Data"), []byte("secret"), 0o600); err != nil {
			t.Fatal(err)
		}
		if lock {
			if err := os.WriteFile(dir+lockSuffix, []byte("1\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	gone, alive, other := mk("p-gone", true), mk("p-alive", true), mk("notes", false)
	held, err := os.OpenFile(alive+lockSuffix, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := lockFile(held); err != nil {
		t.Fatal(err)
	}
	sweepProfiles(root)
	for dir, want := range map[string]bool{gone: false, alive: true, other: true, gone + lockSuffix: false, alive + lockSuffix: true} {
		_, err := os.Stat(dir)
		if got := err == nil; got != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(dir), got, want)
		}
	}
}
