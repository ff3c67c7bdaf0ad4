package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestRecordCommand records the demo site headless and stops it as Ctrl-C
// would: the trace of what was recorded is written and valid.
func TestRecordCommand(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	out := filepath.Join(t.TempDir(), "demo.trace.json")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	r := runWith(ctx, "", "record", "--url", base+"/wiki", "--headless", "-o", out)
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "wrote "+out) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	tr, err := trace.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Driver != "browser" || tr.Start.URL != base+"/wiki" {
		t.Errorf("trace start: %+v", tr.Start)
	}
	if r := runCLI(t, "", "record"); r.code != exitUsage || !strings.Contains(r.stderr, "--url is required") {
		t.Errorf("no url: exit %d, %s", r.code, r.stderr)
	}
}
