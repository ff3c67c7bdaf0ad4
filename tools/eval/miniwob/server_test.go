package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
)

func TestInject(t *testing.T) {
	tests := []struct {
		name, page, seed, ep string
		wantErr              bool
		want                 []string
	}{
		{name: "after core.js", page: "<head>" + coreScript + "<script>x()</script>", seed: "7", ep: "a-demo-7",
			want: []string{coreScript + "<script>\nMath.seedrandom(\"7\");", `encodeURIComponent("a-demo-7")`, "</script><script>x()</script>"}},
		{name: "quotes are escaped", page: coreScript, seed: `a"b`, ep: `</script>`,
			want: []string{`Math.seedrandom("a\"b")`, `"\u003c/script\u003e"`}},
		{name: "no core.js", page: "<head></head>", seed: "1", ep: "x", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := inject([]byte(tc.page), tc.seed, tc.ep)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("the page lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestSeedAndReward serves a tiny task page of our own (a stand-in
// core.js) through the harness's server in headless Chromium: the same
// seed gives the same instance, another seed another one, the task's own
// short time limit does not end the episode, and the reward the page
// posts is read back with the instance's instruction.
func TestSeedAndReward(t *testing.T) {
	bin := os.Getenv("COGFLOW_CHROME")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no Chromium:", err)
	}
	srv, err := startServer("testdata/html")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	l := launcher.New().Bin(bin).Leakless(false).Headless(true).NoSandbox(true).UserDataDir(t.TempDir()).
		Set("disable-background-networking").Set("disable-component-update").Set("disable-gpu")
	u, err := l.Launch()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Kill()
	b := rod.New().ControlURL(u).Timeout(30 * time.Second)
	if err := b.Connect(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	episode := func(seed, ep, button string) Reward {
		t.Helper()
		p := b.MustPage(srv.taskURL("tiny", seed, ep))
		defer p.MustClose()
		p.MustWaitLoad()
		p.MustElement("#start").MustClick()
		time.Sleep(200 * time.Millisecond) // four times the page's own limit
		p.MustElement(button).MustClick()
		rw, ok := srv.reward(ep, 5*time.Second)
		if !ok {
			t.Fatalf("episode %s: no reward posted", ep)
		}
		return rw
	}
	a := episode("s1", "a", "#done")
	again := episode("s1", "b", "#done")
	other := episode("s2", "c", "#wrong")
	if !a.Done || a.Raw != 1 || !strings.HasPrefix(a.Query, "Click done, instance ") {
		t.Errorf("first episode: %+v", a)
	}
	if again.Query != a.Query {
		t.Errorf("the same seed gave two instances: %q and %q", a.Query, again.Query)
	}
	if other.Query == a.Query || other.Raw != -1 {
		t.Errorf("another seed: %+v (first %q)", other, a.Query)
	}
	if _, ok := srv.reward("never", 0); ok {
		t.Error("a reward for an episode that never ran")
	}
}
