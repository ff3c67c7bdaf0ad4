package browser

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Profiles of the browsers the driver launches live in one folder,
// ProfilesDir, each beside a lock file its cogflow holds while it runs (an
// OS file lock, which dies with the process). A profile is the browser's
// disk: cookies, history, and what it saved of forms. Close removes it;
// after kill -9 or a crash it stays, so every launch first sweeps the
// folder: a profile whose lock nobody holds belongs to a cogflow that is
// gone, and is removed. A profile of a running cogflow is never touched.
// The profiles are launched with autofill and password saving off, so a
// typed secret is not written to them in the first place.

// ProfilesDir is where launched browsers keep their profiles:
// $COGFLOW_PROFILES when set, else <user cache dir>/cogflow/profiles, else
// <temp dir>/cogflow-profiles-<uid>.
func ProfilesDir() string {
	if d := os.Getenv("COGFLOW_PROFILES"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "cogflow", "profiles")
	}
	return filepath.Join(os.TempDir(), "cogflow-profiles-"+strconv.Itoa(os.Getuid()))
}

// profilePrefs are the Chromium preferences of a launched profile: no
// autofill (addresses, cards, the entries of single fields), no password
// manager, no sign-in with saved credentials.
const profilePrefs = `{"autofill":{"enabled":false,"profile_enabled":false,"credit_card_enabled":false},` +
	`"credentials_enable_service":false,"credentials_enable_autosignin":false,` +
	`"profile":{"password_manager_enabled":false}}`

// withPrefs is false only in the test that shows what a profile keeps
// without profilePrefs.
var withPrefs = true

// lockSuffix names a profile's lock file: <profile>.lock beside it.
const lockSuffix = ".lock"

// profile is one launched browser's profile and the lock that says its
// cogflow is alive.
type profile struct {
	dir  string
	lock *os.File
}

// newProfile sweeps the profiles of gone cogflows, then makes a fresh
// profile folder: its lock is taken before the folder exists, so a sweep
// running beside it never sees the folder unlocked.
func newProfile() (*profile, error) {
	root := ProfilesDir()
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("browser: profiles: %w", err)
	}
	sweepProfiles(root)
	for range 100 {
		var b [6]byte
		_, _ = rand.Read(b[:]) // never fails
		dir := filepath.Join(root, "p-"+hex.EncodeToString(b[:]))
		lock, err := os.OpenFile(dir+lockSuffix, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("browser: profile: %w", err)
		}
		if err := lockFile(lock); err != nil {
			lock.Close()
			os.Remove(lock.Name())
			return nil, fmt.Errorf("browser: profile: locking: %w", err)
		}
		fmt.Fprintf(lock, "%d\n", os.Getpid()) // for a person looking; the lock decides
		if err := os.Mkdir(dir, 0o700); err != nil {
			lock.Close()
			os.Remove(lock.Name())
			return nil, fmt.Errorf("browser: profile: %w", err)
		}
		p := &profile{dir: dir, lock: lock}
		if err := writePrefs(dir); err != nil {
			_ = p.remove()
			return nil, err
		}
		return p, nil
	}
	return nil, fmt.Errorf("browser: profile: no free name in %s", root)
}

// writePrefs writes profilePrefs as the profile's Preferences, which
// Chromium reads at start (and keeps, adding its own).
func writePrefs(dir string) error {
	if !withPrefs {
		return nil
	}
	def := filepath.Join(dir, "Default")
	if err := os.Mkdir(def, 0o700); err != nil {
		return fmt.Errorf("browser: profile: %w", err)
	}
	if err := os.WriteFile(filepath.Join(def, "Preferences"), []byte(profilePrefs), 0o600); err != nil {
		return fmt.Errorf("browser: profile: %w", err)
	}
	return nil
}

// remove deletes the profile, then its lock.
func (p *profile) remove() error {
	err := os.RemoveAll(p.dir)
	os.Remove(p.lock.Name())
	p.lock.Close()
	return err
}

// sweepProfiles removes every profile in root whose lock nobody holds.
// Errors are ignored: a profile that cannot go now goes at a later sweep.
func sweepProfiles(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "p-") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		lock, err := os.OpenFile(dir+lockSuffix, os.O_RDWR, 0)
		if err != nil {
			continue // no lock: not made by newProfile, or being removed
		}
		if tryLockFile(lock) {
			_ = os.RemoveAll(dir)
			os.Remove(lock.Name())
		}
		lock.Close()
	}
}
