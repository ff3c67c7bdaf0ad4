package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// LockFile is the name of a run's lock file. The file stays behind; the
// lock on it is an OS lock, which dies with the process holding it, so a
// run killed with kill -9 leaves no stale lock.
const LockFile = "lock"

// ErrLocked is wrapped by TryLock's error when another process holds the
// run: it is still running, or another cogflow is resuming it.
var ErrLocked = errors.New("the run is locked by another cogflow process")

// Lock is an exclusive OS lock on a run directory.
type Lock struct {
	f *os.File
}

// TryLock takes the exclusive lock of the run in dir without waiting: it
// fails with ErrLocked when another process (or another Lock in this one)
// holds it.
func TryLock(dir string) (*Lock, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: lock: %w", err)
	}
	locked, err := tryLockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: lock %s: %w", dir, err)
	}
	if !locked {
		f.Close()
		return nil, fmt.Errorf("%w (%s)", ErrLocked, dir)
	}
	return &Lock{f: f}, nil
}

// LockRun takes the lock of run id under root, as TryLock.
func LockRun(root, id string) (*Lock, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("journal: %q is not a run id", id)
	}
	return TryLock(filepath.Join(root, "runs", id))
}

// Release lets the lock go. It is safe on a nil Lock and more than once.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Close() // closing the descriptor drops its lock
	l.f = nil
}
