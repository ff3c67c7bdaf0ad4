package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/runtime/journal"
)

// demoLayout serves a fresh demo site in a layout.
func demoLayout(t *testing.T, layout string) (*site.Site, string) {
	t.Helper()
	isolateConfig(t) // no model: lexical ranking and the deterministic goal only
	s, err := site.NewLayout(layout)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv.URL
}

var runIDRE = regexp.MustCompile(`\(run (\S+)\)`)

// healRun loads the run a command reported.
func healRun(t *testing.T, root string, r result) *journal.Run {
	t.Helper()
	m := runIDRE.FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no run id in:\n%s", r.stdout)
	}
	run, err := journal.Load(root, m[1])
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestE2EHeal is the self-healing acceptance, in real headless Chromium
// with no model: the bundled notes_save.cog, run on the moved layout
// (Save behind the "More" menu), fails without --heal as before; with
// --heal it explores, opens the menu, reaches its end, journals the
// exploration and proposes a patch; applied (--yes), the patched file
// runs on the moved layout with no exploration at all.
func TestE2EHeal(t *testing.T) {
	needChromium(t)
	s, base := demoLayout(t, site.LayoutMoved)
	root := t.TempDir()
	wf := workflow(t, "notes_save.cog", base)
	orig, err := os.ReadFile(wf)
	if err != nil {
		t.Fatal(err)
	}

	r := runWith(context.Background(), "", "run", wf, "--dir", root)
	if r.code != exitStepFailed || !strings.Contains(r.stderr, `step op3 failed: no element matches button(name: "Save")`) {
		t.Fatalf("without --heal: exit %d, want %d and the anchor error\n%s%s", r.code, exitStepFailed, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "explore") {
		t.Errorf("explored without --heal:\n%s", r.stderr)
	}

	r = runWith(context.Background(), "", "run", wf, "--dir", root, "--heal")
	if r.code != exitOK {
		t.Fatalf("--heal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"ok: 3 steps, 0 iterations, 1 exploration steps",
		"+  # Added by cogflow run --heal: op3's target shows only after this step.",
		`+  click_more = click(button(name: "More"))`, "Not applied:", healPatchFile} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--heal: stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, `explore line 21   1 forward click button(name: "More") — reached`) {
		t.Errorf("--heal: the exploration step is not shown:\n%s", r.stderr)
	}
	run := healRun(t, root, r)
	if len(run.Explored) != 1 {
		t.Fatalf("journal: %d explore lines, want 1: %+v", len(run.Explored), run.Explored)
	}
	if ev := run.Explored[0]; ev.Step != "op3" || ev.Line != 21 || ev.Kind != "heal" || ev.Op != "click" || ev.Target != `button(name: "More")` || !ev.Reached {
		t.Errorf("journal: %+v", ev)
	}
	if n := len(run.Steps); n != 3 || run.Steps[2].Outcome != journal.OK {
		t.Errorf("journal steps: %+v", run.Steps)
	}
	if now, _ := os.ReadFile(wf); string(now) != string(orig) {
		t.Errorf("the workflow changed without a yes:\n%s", now)
	}
	kept, err := os.ReadFile(filepath.Join(root, "runs", run.ID, healPatchFile))
	if err != nil || !strings.Contains(string(kept), `+  click_more = click(button(name: "More"))`) {
		t.Errorf("heal.patch: %v\n%s", err, kept)
	}
	if got := s.State().Notes; got != "Call the printer shop on Monday" {
		t.Errorf("notes = %q", got)
	}

	r = runWith(context.Background(), "", "run", wf, "--dir", root, "--heal", "--yes")
	if r.code != exitOK || !strings.Contains(r.stdout, "Applied: wrote") {
		t.Fatalf("--heal --yes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	patched, _ := os.ReadFile(wf)
	for _, line := range strings.Split(string(orig), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") && !strings.Contains(string(patched), line) {
			t.Errorf("the patch lost the comment %q", line)
		}
	}

	r = runWith(context.Background(), "", "run", wf, "--dir", root)
	if r.code != exitOK || !strings.Contains(r.stdout, "ok: 4 steps, 0 iterations (run") {
		t.Fatalf("patched: exit %d, want 4 steps and no exploration\n%s%s", r.code, r.stdout, r.stderr)
	}
	if run := healRun(t, root, r); len(run.Explored) != 0 {
		t.Errorf("the patched file explored: %+v", run.Explored)
	}
}

// TestE2EExploreBlock runs the explore-block example on both layouts with
// no --heal and no model: on the original one nothing is explored, on the
// moved one the run opens the menu inside the block's budget.
func TestE2EExploreBlock(t *testing.T) {
	needChromium(t)
	for _, tc := range []struct {
		layout   string
		explored int
	}{
		{site.LayoutOriginal, 0},
		{site.LayoutMoved, 1},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			s, base := demoLayout(t, tc.layout)
			root := t.TempDir()
			r := runWith(context.Background(), "", "run", workflow(t, "notes_save_explore.cog", base), "--dir", root)
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			run := healRun(t, root, r)
			if len(run.Explored) != tc.explored {
				t.Errorf("%d explore lines, want %d: %+v", len(run.Explored), tc.explored, run.Explored)
			}
			for _, ev := range run.Explored {
				if ev.Kind != "block" || ev.Step != "op3" {
					t.Errorf("explore line %+v", ev)
				}
			}
			if strings.Contains(r.stdout, "patch") {
				t.Errorf("an explore block proposed a patch:\n%s", r.stdout)
			}
			if got := s.State().Notes; got != "Call the printer shop on Monday" {
				t.Errorf("notes = %q", got)
			}
		})
	}
}
