package driver_test

import (
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android"
	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/driver/uia"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// TestDriversPerformTheirSkills: a driver's skill library (stdlib/skills)
// is what the driver tells the checker it supports, so every action a
// shipped skill performs must be one its driver performs. A skill that
// needs an action its driver lacks would check and then fail at run time.
func TestDriversPerformTheirSkills(t *testing.T) {
	caps := map[string]driver.Capabilities{
		"browser": (&browser.Driver{}).Capabilities(),
		"android": (&android.Driver{}).Capabilities(),
		"uia":     (&uia.Driver{}).Capabilities(),
	}
	for _, d := range skills.Drivers {
		if _, ok := caps[d]; !ok {
			t.Fatalf("no capabilities for the %s driver", d)
		}
	}
	for _, s := range skills.Stdlib().All("") {
		walkSteps(s.Decl.Body, func(step *ast.Step) {
			call, ok := step.Value.(*ast.Call)
			if !ok {
				return
			}
			name := action.Name(call.CalleeName())
			if name.Known() && !caps[s.Driver].Supports(name) {
				t.Errorf("%s skill %s performs %s, which the %s driver does not", s.Driver, s.Name(), name, s.Driver)
			}
		})
	}
}

func walkSteps(b *ast.Block, fn func(*ast.Step)) {
	for _, s := range b.Stmts {
		if st, ok := s.(*ast.Step); ok {
			fn(st)
		}
		for _, inner := range ast.Bodies(s) {
			walkSteps(inner, fn)
		}
	}
}
