package android

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime"
)

// TestZeroHeightContainers: on this sign-in screen (shaped like a real
// one) the form and the two groups inside it are laid out with zero
// height while their children are drawn with real bounds. Each node's
// own bounds and the screen decide what is seen: the fields and buttons
// are observed, anchorable and hit by a tap; what lies below the screen
// is not.
func TestZeroHeightContainers(t *testing.T) {
	h := loadDump(t, "signin_zero_height.xml")
	tr := normalize(h, time.Time{})
	checkTree(t, tr)
	tests := []struct {
		l      *runtime.Locator
		wantID string
	}{
		{loc("button", "name", "Sign in"), "sign_in"},
		{loc("button", "name", "Create account"), "sign_up"},
		{loc("textbox", "placeholder", "Username"), "username"},
		{loc("textbox", "id", "password"), "password"},
		{loc("checkbox", "name", "Keep me signed in"), "remember"},
		{loc("button", "name", "Forgot password?"), "forgot"},
		{loc("text", "text", "Welcome back"), "title"},
		{loc("image", "name", "Example Bank"), "logo"},
	}
	for _, tt := range tests {
		el, err := runtime.Choose(tt.l, tr.Elements)
		if err != nil {
			t.Errorf("%s: %v", tt.l, err)
			continue
		}
		if el.ID != tt.wantID || !el.Visible || el.Bounds.W <= 0 || el.Bounds.H <= 0 {
			t.Errorf("%s: chose %s (visible %v, bounds %+v), want %s", tt.l, el.ID, el.Visible, el.Bounds, tt.wantID)
			continue
		}
		x, y := el.Bounds.Center()
		if k := hit(tr, h, int(x), int(y)); k < 0 || tr.Elements[k] != el {
			t.Errorf("%s: a tap at its center hits %d, not it", tt.l, k)
		}
	}
	if got := find(tr, "id", "terms"); len(got) != 0 {
		t.Errorf("the link below the screen is observed: %+v", got[0])
	}
	text := screenText(h)
	for _, w := range []string{"Welcome back", "Sign in", "Create account", "Forgot password?"} {
		if !strings.Contains(text, w) {
			t.Errorf("screen text lacks %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "Terms of service") {
		t.Errorf("screen text has what is below the screen:\n%s", text)
	}
}

func loc(role string, kv ...string) *runtime.Locator {
	l := &runtime.Locator{Role: role, Attrs: map[string]string{}, Index: -1}
	for i := 0; i+1 < len(kv); i += 2 {
		l.Attrs[kv[i]] = kv[i+1]
	}
	return l
}

func loadDump(t *testing.T, name string) *hierarchy {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseDump(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return h
}
