package main

import (
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/internal/goldentest"
	"github.com/cogflow/cogflow/lang/patch"
)

var updateHeal = flag.Bool("update", false, "rewrite the heal patch goldens")

// healCase is a golden's heals section: per healed step, its name, line
// and the path found.
type healCase struct {
	Before string       `json:"before"`
	Line   int          `json:"line"`
	Path   []patch.Step `json:"path"`
}

// TestHealPatchGolden checks the text of the patch a healed run shows:
// each archive has a heals section (JSON) and a workflow; the patch
// section is the diff printed for them.
func TestHealPatchGolden(t *testing.T) {
	var heals []healCase
	goldentest.Run(t, "testdata/heal/*.txtar", "patch", *updateHeal, func(t *testing.T, name string, data []byte) string {
		if name == "heals" {
			heals = nil
			if err := json.Unmarshal(data, &heals); err != nil {
				t.Fatalf("heals: %v", err)
			}
			return ""
		}
		var ins []patch.Insertion
		for _, h := range heals {
			ins = append(ins, patch.Insertion{Before: h.Before, Line: h.Line, Steps: h.Path, Note: healNote(h.Before, len(h.Path))})
		}
		_, diff, err := patchDiff(name, []byte(data), ins)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return string(diff)
	})
}

func TestHealNote(t *testing.T) {
	if got := healNote("op3", 2); !strings.Contains(got, "op3's target shows only after these steps") {
		t.Errorf("healNote = %q", got)
	}
}
