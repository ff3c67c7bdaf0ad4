package cogflow

import (
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
)

// The errors a caller of Run tells apart, re-exported from the packages
// that create them (see runtime/errors.go).
type (
	// StepError is a step that failed: Position() is its file:line:col,
	// StepName() its name, Unwrap the cause.
	StepError = runtime.StepError
	// AnchorError is an element description that matched no element, or
	// several equally: it holds the nearest candidates.
	AnchorError = runtime.AnchorError
	// InterruptedError is a run stopped by Stop or its context; At says
	// after which step.
	InterruptedError = runtime.InterruptedError
)

var (
	// ErrInterrupted is what an InterruptedError Is.
	ErrInterrupted = runtime.ErrInterrupted
	// ErrGone is the browser or device gone during the run (it exited, its
	// connection closed, the device was unplugged).
	ErrGone = driver.ErrGone
	// ErrUnavailable is a driver that cannot run here (no Chromium, no
	// Windows for uia).
	ErrUnavailable = driver.ErrUnavailable
)
