//go:build !unix

package browser

import "os"

// lockFile does nothing where flock is missing: profiles are still kept in
// one folder, but a sweep cannot tell a live owner from a gone one.
func lockFile(*os.File) error { return nil }

// tryLockFile reports false: without a lock, no profile is swept.
func tryLockFile(*os.File) bool { return false }
