//go:build unix

package journal

import (
	"errors"
	"os"
	"syscall"
)

// tryLockFile takes flock(LOCK_EX|LOCK_NB): the lock belongs to the open
// file description, so a second TryLock in the same process is refused
// too, and the kernel drops it when the process dies.
func tryLockFile(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, err
	}
}
