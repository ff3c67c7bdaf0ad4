package origin

import (
	"net"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct{ raw, want, err string }{
		{"http://wiki/", "http://wiki:80", ""},
		{"HTTPS://Example.COM/x?y#z", "https://example.com:443", ""},
		{"http://[::1]:8080/", "http://[::1]:8080", ""},
		{"http://wiki@evil.example/", "http://evil.example:80", ""},
		{"javascript:alert(1)", "", "its scheme is javascript:"},
		{"file:///etc/passwd", "", "its scheme is file:"},
		{"/admin", "", "not an absolute URL"},
		{" http://x/", "", "a space"},
		{"http://x\\@y/", "", "a backslash"},
		{"http:evil", "", "no host"},
		{"http://]", "", "not an ASCII host name"},
		{"http://İ.example.com/", "", "xn-- form"},
		{"http://xn--i-9bb.example.com/", "http://xn--i-9bb.example.com:80", ""},
	} {
		got, err := Of(tc.raw)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Of(%q) = %q, %v; want %q, %q", tc.raw, got, err, tc.want, tc.err)
		}
	}
}

func TestCheckEntry(t *testing.T) {
	for _, tc := range []struct{ entry, err string }{
		{"*", ""},
		{"https://example.com", ""},
		{"https://example.com:8443/", ""},
		{"https://*.example.org", ""},
		{"https://example.com/guide", "no user, path, query or fragment"},
		{"https://u@example.com", "no user"},
		{"file:///etc", "only http:// and https://"},
		{"example.com", "only http:// and https://"},
		{"https://]", "not an ASCII host name"},
	} {
		err := CheckEntry(tc.entry)
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("CheckEntry(%q) = %v, want %q", tc.entry, err, tc.err)
		}
	}
}

// FuzzOf: whatever the text, Of either refuses it or gives a
// normalized http(s) origin whose host the URL really names.
func FuzzOf(f *testing.F) {
	for _, s := range []string{"http://wiki/", "HTTPS://Example.COM:443/x?y#z", "javascript:alert(1)", "http://a@b/", "http:b",
		"http://[::1]:8080/", " http://x/", "http://x\\@y/", "file:///etc/passwd", "data:text/html,x", "//evil/", "http://%41/"} {
		f.Add(s)
	}
	origin := regexp.MustCompile(`^https?://(\[[0-9a-f:.%]+\]|[^/:@\[\]]+):[0-9]+$`)
	f.Fuzz(func(t *testing.T, raw string) {
		o, err := Of(raw)
		if err != nil {
			return
		}
		if !origin.MatchString(o) {
			t.Fatalf("Of(%q) = %q", raw, o)
		}
		u, perr := url.Parse(raw)
		if perr != nil || !strings.EqualFold(u.Hostname(), hostOf(o)) {
			t.Fatalf("Of(%q) = %q, but the URL's host is %q", raw, o, u.Hostname())
		}
		if strings.ContainsAny(raw, " \t\n\\") {
			t.Fatalf("Of(%q) accepted a space or backslash", raw)
		}
	})
}

func hostOf(origin string) string {
	_, rest, _ := strings.Cut(origin, "://")
	h, _, _ := net.SplitHostPort(rest)
	return h
}
