package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/runtime/trace"
)

// The api-first stage must keep a workflow's meaning: the e2e tests of
// compiled workflows compile their demonstration both ways (with the stage
// and with --no-api-first) and run both, each on a fresh demo site, and
// the sites must end in the same state.

// bothWays is one demonstration compiled both ways.
type bothWays struct {
	api, ui       string // the workflows' paths
	apiSrc, uiSrc string
}

// rewritten reports whether the api-first stage changed the workflow.
func (b bothWays) rewritten() bool { return b.apiSrc != b.uiSrc }

// compileBothWays compiles the trace with the api-first stage and without.
func compileBothWays(t *testing.T, tracePath, name string, flags ...string) bothWays {
	t.Helper()
	var b bothWays
	b.api, b.apiSrc = compileTrace(t, tracePath, name, flags...)
	b.ui, b.uiSrc = compileTrace(t, tracePath, name, append([]string{"--no-api-first"}, flags...)...)
	return b
}

// runBothWays runs both workflows, each on a fresh demo site (its address
// put where the demonstration's base was), with the same run flags, and
// fails when the sites end in different states. It returns the sites and
// the runs' --dir folders, api-first first. When the stage changed nothing,
// the one workflow runs once.
func runBothWays(t *testing.T, ctx context.Context, b bothWays, base string, flags ...string) ([]*site.Site, []string) {
	t.Helper()
	var sites []*site.Site
	var roots []string
	cogs := []string{b.api, b.ui}
	if !b.rewritten() {
		cogs = cogs[:1]
	}
	for _, cog := range cogs {
		// Not demo(t): it would isolate the configuration again, and drop
		// the scripted model a test set up for its runs.
		s2 := site.New()
		srv := httptest.NewServer(s2.Handler())
		t.Cleanup(srv.Close)
		base2 := srv.URL
		root := t.TempDir()
		replay(t, ctx, cog, base, base2, append(append([]string(nil), flags...), "--dir", root)...)
		sites, roots = append(sites, s2), append(roots, root)
	}
	if len(sites) == 2 {
		if d := site.Diff(sites[1].State(), sites[0].State()); len(d) > 0 {
			t.Errorf("the api-first workflow left the site in another state than the UI steps did:\n%s", strings.Join(d, "\n"))
		}
	}
	return sites, roots
}

// formFacts describes the form facts a trace's typed fields carry, for a
// failure's message.
func formFacts(tr *trace.Trace) string {
	var out []string
	for _, e := range tr.Events {
		if e.Kind != trace.KindInput || e.Target == nil {
			continue
		}
		if el := tr.Snapshots[e.Snapshot].ByRef(e.Target.Ref); el != nil && el.Form != nil {
			out = append(out, e.ID+": "+el.Form.Action+" "+el.Form.Method+" "+el.Form.Field+" "+el.Form.Script)
		}
	}
	return strings.Join(out, "\n")
}
