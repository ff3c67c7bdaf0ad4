package runtime

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/check"
)

// ParseNumber reads a number typed as text, such as an answer at --ask.
// NaN and the infinities are refused (strconv accepts them, and go-cty
// panics on NaN); so is a number too large for a float64. (parseInput
// makes the same check for --input values and CSV cells.)
func ParseNumber(raw string) (float64, error) {
	s := strings.TrimSpace(raw)
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0):
		return 0, fmt.Errorf("%q is too large a number", truncate(raw, 40))
	case err != nil && !errors.Is(err, strconv.ErrRange): // a tiny number rounds to 0
		return 0, fmt.Errorf("%q is not a number", truncate(raw, 40))
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%q is not a finite number", truncate(raw, 40))
	}
	return f, nil
}

// seconds reads a number of seconds to wait (wait(n), timeout: n) as the
// checker bounds literals: from 0 to check.MaxWaitSeconds. A computed
// value out of that range fails the step instead of waiting forever, or
// not at all.
func seconds(name string, v cty.Value) (time.Duration, error) {
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.Number {
		return 0, fmt.Errorf("%s must be a number of seconds", name)
	}
	f, _ := v.AsBigFloat().Float64()
	if math.IsNaN(f) || f < 0 || f > check.MaxWaitSeconds {
		return 0, fmt.Errorf("%s must be from 0 to %d seconds, not %s", name, check.MaxWaitSeconds, render(v))
	}
	return time.Duration(f * float64(time.Second)), nil
}
