package runtime

import "time"

// The package's tests look for a missing target once, as before the
// grace existed: many of them check the "no element matches" error, and
// waiting out the grace in each would only slow the suite. The grace's
// own tests set it with SetAppearGrace.
func init() { appearGrace = 0 }

// SetAppearGrace sets how long a step looks again for a target that is
// not there yet, and returns a function that restores the old value.
func SetAppearGrace(d time.Duration) (restore func()) {
	old := appearGrace
	appearGrace = d
	return func() { appearGrace = old }
}
