package browser

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// descendants lists the live (or zombie) processes below pid, from /proc.
func descendants(t *testing.T, pid int) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	parent := map[int]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			parent[p] = pp
		}
	}
	var out []int
	for p := range parent {
		for a, n := parent[p], 0; a > 0 && n < 64; a, n = parent[a], n+1 {
			if a == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func parentOf(t *testing.T, pid int) int {
	st, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(st)[strings.LastIndexByte(string(st), ')')+1:])
	p, _ := strconv.Atoi(f[1])
	return p
}

func TestCloseLeavesNoProcess(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := Start(ctx, driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := newSite(t)
	open(t, d, s.page("/p", `<iframe src="/p2"></iframe>`))
	// The browser's processes: its main process, the processes below it and
	// the leakless guard above it (other tests' browsers run beside it).
	self := os.Getpid()
	pid := d.proc.pid
	before := append(descendants(t, pid), pid)
	if guard := parentOf(t, pid); guard != self {
		before = append(before, guard)
	}
	if len(before) < 3 {
		t.Fatalf("%d browser processes before Close, want the main one, its renderer and more", len(before))
	}
	dir := d.proc.dir
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// Every process of the browser has exited. One that exited after the
	// browser's main process is reparented to init, which reaps it; none
	// may be left running or be a zombie of ours.
	deadline := time.Now().Add(5 * time.Second)
	for _, p := range before {
		for {
			st, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "stat"))
			if err != nil {
				break // gone
			}
			f := strings.Fields(string(st)[strings.LastIndexByte(string(st), ')')+1:])
			if f[0] == "Z" && f[1] != strconv.Itoa(self) {
				break // exited; its parent (init) reaps it
			}
			if time.Now().After(deadline) {
				t.Errorf("process %d outlived Close: %s", p, st)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("profile %s not removed: %v", dir, err)
	}
	if _, err := d.Do(ctx, driver.Action{Op: "back"}); err == nil {
		t.Error("a closed driver acted")
	}
}

func TestMissingChromium(t *testing.T) {
	_, err := Start(context.Background(), driver.Options{Executable: "/nonexistent/chromium"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/chromium") {
		t.Fatalf("error %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("COGFLOW_CHROME", "")
	saved := candidates
	candidates = []string{"chromium-not-here"}
	defer func() { candidates = saved }()
	_, err = FindChromium("")
	if err == nil || !strings.Contains(err.Error(), "apt-get install chromium") || !strings.Contains(err.Error(), "COGFLOW_CHROME") {
		t.Fatalf("error %v", err)
	}
	if !errorsIs(err, driver.ErrUnavailable) {
		t.Error("not ErrUnavailable")
	}
}

func TestRemoteAttach(t *testing.T) {
	host := sharedDriver(t)
	s := newSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	d, err := Start(ctx, driver.Options{RemoteURL: host.proc.url})
	if err != nil {
		t.Fatal(err)
	}
	open(t, d, s.page("/remote", `<title>Remote</title><button id=b onclick="document.title='done'">Go</button>`))
	do(t, d, driver.Action{Op: "click", Target: find(t, d, driver.Query{ID: "b"}, byID("b"))})
	if got := eval(t, d, "document.title"); got != "done" {
		t.Errorf("title %q", got)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// The browser it attached to still runs.
	open(t, host, s.page("/after", `<title>After</title>`))
	if got := eval(t, host, "document.title"); got != "After" {
		t.Errorf("host title %q", got)
	}
}
