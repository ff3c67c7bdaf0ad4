package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSafeTarget(t *testing.T) {
	cases := []struct {
		target string
		safe   []string
		want   bool
	}{
		{"http://127.0.0.1:8088/", []string{"http://127.0.0.1:8088"}, true},
		{"http://127.0.0.1:8088/form", []string{"http://127.0.0.1:8088/"}, true},
		{"http://127.0.0.1:8088/shop/cart", []string{"http://127.0.0.1:8088/shop"}, true},
		{"http://127.0.0.1:8088/shop", []string{"http://127.0.0.1:8088/shop/"}, true},
		{"http://127.0.0.1:8088/shopping", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8089/", []string{"http://127.0.0.1:8088"}, false},
		{"https://127.0.0.1:8088/", []string{"http://127.0.0.1:8088"}, false},
		{"http://example.com/", nil, false},
		{"http://example.com/", []string{"example.com"}, false}, // not an absolute URL
		// The browser resolves dot segments (also escaped, also behind a
		// backslash) before it loads the page.
		{"http://127.0.0.1:8088/shop/../admin/delete", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8088/shop/%2e%2e/admin", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8088/shop/..\\admin", []string{"http://127.0.0.1:8088/shop"}, false},
		{"http://127.0.0.1:8088/shop/./cart/../list", []string{"http://127.0.0.1:8088/shop"}, true},
		{"http://127.0.0.1:8088.evil.com/", []string{"http://127.0.0.1:8088"}, false},
		{"http://127.0.0.1:8088@evil.com/", []string{"http://127.0.0.1:8088"}, false},
	}
	for _, c := range cases {
		if got := safeTarget(c.target, c.safe); got != c.want {
			t.Errorf("safeTarget(%q, %q) = %v, want %v", c.target, c.safe, got, c.want)
		}
	}
}

// One skill whose sidecar is broken does not hide the others: `skills
// list` still lists them and names the broken file at its position, and
// exits with exitBadInput.
func TestSkillsListBrokenSidecar(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".cogflow")
	sk := filepath.Join(dir, "skills", "browser")
	if err := os.MkdirAll(sk, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"a_broken.cog":  "# Broken sidecar.\nskill a_broken() {\n  s1 = back()\n}\n",
		"a_broken.json": "{\"name\": \"a_broken\",,\n}\n",
		"mine.cog":      "# Mine.\nskill mine() {\n  s1 = back()\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(sk, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runWith(context.Background(), "", "skills", "list", "--dir", dir)
	if r.code != exitBadInput || !strings.Contains(r.stdout, "mine ") || !strings.Contains(r.stderr, "a_broken.json:1:21: invalid character ','") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// `skills list` shows every driver's skills under a heading, and only one
// driver's with --driver.
func TestSkillsListDrivers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".cogflow")
	r := runWith(context.Background(), "", "skills", "list", "--dir", dir)
	for _, want := range []string{"browser:\n", "android:\n", "uia:\n", "open_with_query ", "dial ", "menu"} {
		if r.code != exitOK || !strings.Contains(r.stdout, want) {
			t.Errorf("skills list lacks %q (exit %d):\n%s%s", want, r.code, r.stdout, r.stderr)
		}
	}
	r = runWith(context.Background(), "", "skills", "list", "--driver", "android", "--dir", dir)
	if r.code != exitOK || !strings.Contains(r.stdout, "dial ") || strings.Contains(r.stdout, "open_with_query") || strings.Contains(r.stdout, "android:") {
		t.Errorf("skills list --driver android (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
}
